import { AccountingItems, SCHEME_PRICE_COLUMNS, SchemePriceItems } from '../components/config-fields';
import { MoneySettingsCard } from '../components/config-money-settings';
import { TariffSectionPage } from '../components/config-tariff-section';

/**
 * projectpara (项目参数; projectType2 101–104): the scheme, its unit price, the fan-speed coefficients, the overtime
 * price and the accounting period — one tariff version per save — and the project's balance warnings and overdraft.
 */
export default function ProjectParaPage() {
  return (
    <TariffSectionPage
      title="项目参数"
      code="projectpara"
      keys={['scheme', 'price', 'k', 'overtimePrice', 'accounting']}
      intro="计费方案、单价、风速系数、超时单价与结算周期；每次保存都是一个新版本，已出账的时段仍按原价格计算。"
      historyColumns={[
        ...SCHEME_PRICE_COLUMNS,
        { title: '结算日 / 缴费期限', key: 'acc', width: 140, render: (_, v) => `每月 ${v.accounting.closeDay} 日 / ${v.accounting.dueDays} 天` },
      ]}
      after={(projectId) => <MoneySettingsCard projectId={projectId} code="projectpara" />}
    >
      <SchemePriceItems />
      <AccountingItems />
    </TariffSectionPage>
  );
}

import { Form } from 'antd';
import { tariffBody } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { AccountingItems, FieldGrid, PriceInput, SchemeItem } from '../components/config-fields';
import { TariffSectionPage } from '../components/config-tariff-section';

/**
 * billingScheme (计费方案; deposit-based projects, projectType2 105): the project's scheme (1–21), the monthly flat fee
 * of scheme 21 and the accounting period (结算日, 缴费期限).
 */
export default function BillingSchemePage() {
  return (
    <TariffSectionPage
      title="计费方案"
      code="billingScheme"
      keys={['scheme', 'flatMonthlyPrice', 'accounting']}
      intro="计费方案决定项目的计费方法和报表；包月费用于押金制固定费用（方案 21）及设备基础费。每次保存都是一个新版本，之前的时段仍按原价格计算。"
      historyColumns={[
        { title: '包月费（元/月）', key: 'flat', width: 130, align: 'right', render: (_, v) => v.flatMonthlyPrice },
        { title: '结算日', key: 'closeDay', width: 90, render: (_, v) => `每月 ${v.accounting.closeDay} 日` },
        { title: '缴费期限', key: 'dueDays', width: 90, render: (_, v) => `${v.accounting.dueDays} 天` },
      ]}
    >
      <SchemeItem />
      <FieldGrid>
        <Form.Item name="flatMonthlyPrice" label="包月费（元/月·台）" rules={[zodRule(tariffBody.shape.flatMonthlyPrice)]} extra="押金制固定费用：每台设备每月的费用">
          <PriceInput unit="元/月" />
        </Form.Item>
      </FieldGrid>
      <AccountingItems />
    </TariffSectionPage>
  );
}

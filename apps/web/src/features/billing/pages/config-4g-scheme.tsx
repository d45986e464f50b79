import { Form, InputNumber } from 'antd';
import { FieldGrid, SCHEME_PRICE_COLUMNS, SchemePriceItems } from '../components/config-fields';
import { TariffSectionPage } from '../components/config-tariff-section';
import { QuoteTrial } from '../components/quote-trial';

type Hours = { low: number; mid: number; high: number };
const HOURS: [keyof Hours, string][] = [['low', '低速运行时间'], ['mid', '中速运行时间'], ['high', '高速运行时间']];

/**
 * jffa2021x1 (4G 计费方案; 4G projects, projectType2 103/104): scheme, unit price per hour of time equivalent, the
 * fan-speed coefficients and the overtime price — with a 计费试算 of the time equivalent.
 */
export default function FourGSchemePage() {
  return (
    <TariffSectionPage
      title="4G 计费方案"
      code="jffa2021x1"
      keys={['scheme', 'price', 'k', 'overtimePrice']}
      intro="4G 空调计费器按时间当量计费：T当量 = Σ 风速系数 k × 该风速下阀门开启的运行时间，费用 = T当量 × 单价。"
      historyColumns={[
        ...SCHEME_PRICE_COLUMNS,
      ]}
      aside={(form) => (
        <QuoteTrial<{ hours: Hours }>
          hint="输入各风速的运行时间（小时），按正在编辑的单价和风速系数计算。"
          initialValues={{ hours: { low: 0, mid: 0, high: 0 } }}
          build={async (inputs) => {
            const v = await form.validateFields(['price', ['k', 'low'], ['k', 'mid'], ['k', 'high']]);
            return { method: 'timeEquivalent', params: { price: v.price!, k: v.k! }, inputs: { hours: inputs.hours } };
          }}
        >
          <FieldGrid columns={3}>
            {HOURS.map(([k, label]) => (
              <Form.Item key={k} name={['hours', k]} label={`${label}（h）`} rules={[{ required: true, message: `请输入${label}` }]}>
                <InputNumber min={0} style={{ width: '100%' }} />
              </Form.Item>
            ))}
          </FieldGrid>
        </QuoteTrial>
      )}
    >
      <SchemePriceItems />
    </TariffSectionPage>
  );
}

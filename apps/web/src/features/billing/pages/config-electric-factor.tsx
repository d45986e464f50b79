import { Form } from 'antd';
import { tariffBody } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { FactorInput, FieldGrid, PriceInput } from '../components/config-fields';
import { TariffSectionPage } from '../components/config-tariff-section';

/**
 * billingFactor_n (电能计费系数; 4G electric metering, PT5010): the meters' multiplier (CT/PT 倍率, applied to the kWh
 * they count) and the base price per kWh.
 */
export default function ElectricFactorPage() {
  return (
    <TariffSectionPage
      title="电能计费系数"
      code="billingFactor_n"
      keys={['electric', 'price']}
      intro="计费电量 = 电表读数差 × 倍率；电费 = 计费电量 × 电价。"
      historyColumns={[
        { title: '倍率', key: 'm', width: 90, align: 'right', render: (_, v) => v.electric.multiplier },
        { title: '电价（元/kWh）', dataIndex: 'price', width: 120, align: 'right' },
      ]}
    >
      <FieldGrid>
        <Form.Item name={['electric', 'multiplier']} label="电表倍率" rules={[zodRule(tariffBody.shape.electric.shape.multiplier)]} extra="互感器变比（CT × PT），直接接入的电表为 1">
          <FactorInput placeholder="如 1 或 40" />
        </Form.Item>
        <Form.Item name="price" label="电价（元/kWh）" rules={[zodRule(tariffBody.shape.price)]}>
          <PriceInput unit="元/kWh" />
        </Form.Item>
      </FieldGrid>
    </TariffSectionPage>
  );
}

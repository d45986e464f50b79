import { Form } from 'antd';
import { tariffBody } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { FieldGrid, PriceInput } from '../components/config-fields';
import { TariffSectionPage } from '../components/config-tariff-section';

const solar = tariffBody.shape.solar.shape;

/** billingFactorSolar_n (光伏计费系数; PT5020): what generated energy is worth — used on site and fed into the grid. */
export default function SolarFactorPage() {
  return (
    <TariffSectionPage
      title="光伏计费系数"
      code="billingFactorSolar_n"
      keys={['solar']}
      intro="光伏发电收益 = 自用电量 × 自用电价 + 上网电量 × 上网电价（报表按此计算）。"
      historyColumns={[
        { title: '自用电价（元/kWh）', key: 'self', width: 140, align: 'right', render: (_, v) => v.solar.selfUsePrice },
        { title: '上网电价（元/kWh）', key: 'feed', width: 140, align: 'right', render: (_, v) => v.solar.feedInPrice },
      ]}
    >
      <FieldGrid>
        <Form.Item name={['solar', 'selfUsePrice']} label="自用电价（元/kWh）" rules={[zodRule(solar.selfUsePrice)]} extra="自发自用部分节省的电费单价">
          <PriceInput unit="元/kWh" />
        </Form.Item>
        <Form.Item name={['solar', 'feedInPrice']} label="上网电价（元/kWh）" rules={[zodRule(solar.feedInPrice)]} extra="余电上网的结算单价">
          <PriceInput unit="元/kWh" />
        </Form.Item>
      </FieldGrid>
    </TariffSectionPage>
  );
}

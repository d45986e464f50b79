import { Button, Form, Input, InputNumber, Table, Tabs } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { schemeOf, tariffBody } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { FieldGrid, PriceInput } from '../components/config-fields';
import { TariffSectionPage, type SectionValues } from '../components/config-tariff-section';
import { QuoteTrial } from '../components/quote-trial';
import type { FormInstance } from 'antd';

const heat = tariffBody.shape.heat.shape;
type Room = { name: string; area: number; hours: number };
const isOnOff = (scheme: number) => schemeOf(scheme)?.method === 'onOffTimeArea';

/**
 * billingFactorHeating (采暖计费系数): the two-part heat tariff — 基本热价 per m² of area per period and 计量热价 per
 * GJ — with 计费试算 for one household (两部制) and for a building split by on/off time × area (通断时间面积法,
 * JGJ 173: Q_i = Q × A_i·t_i / Σ A·t, priced at the document's unit price as the engine does).
 */
export default function HeatingFactorPage() {
  return (
    <TariffSectionPage
      title="采暖计费系数"
      code="billingFactorHeating"
      // price: the building heat price of 通断时间面积法 (schemes 17/18) — the engine prices it with the document's unit price
      keys={['heat', 'price']}
      intro="两部制热价：热费 = 基本热价 × 面积 + 计量热价 × 用热量（GJ）。"
      historyColumns={[
        { title: '基本热价（元/m²）', key: 'basic', width: 140, align: 'right', render: (_, v) => v.heat.basicPrice },
        { title: '计量热价（元/GJ）', key: 'heat', width: 140, align: 'right', render: (_, v) => v.heat.heatPrice },
      ]}
      aside={(form, cur) => (
        <Tabs
          size="small"
          items={[
            { key: 'two', label: '两部制试算', children: <TwoPartTrial form={form} /> },
            { key: 'onoff', label: '通断时间面积法试算', children: <OnOffTrial form={form} onOffScheme={isOnOff(cur.scheme)} /> },
          ]}
        />
      )}
    >
      {(cur) => (
      <FieldGrid>
        <Form.Item name={['heat', 'basicPrice']} label="基本热价（元/m²）" rules={[zodRule(heat.basicPrice)]} extra="每个结算周期按供热面积收取">
          <PriceInput unit="元/m²" />
        </Form.Item>
        <Form.Item name={['heat', 'heatPrice']} label="计量热价（元/GJ）" rules={[zodRule(heat.heatPrice)]} extra="按热量表计量的用热量收取">
          <PriceInput unit="元/GJ" />
        </Form.Item>
        {isOnOff(cur.scheme) && (
          <Form.Item name="price" label="楼栋热价（元/GJ）" rules={[zodRule(tariffBody.shape.price)]} extra="通断时间面积法：楼栋热量分摊到各户后按此单价计费（即项目参数中的单价）">
            <PriceInput unit="元/GJ" />
          </Form.Item>
        )}
      </FieldGrid>
      )}
    </TariffSectionPage>
  );
}

function TwoPartTrial({ form }: { form: FormInstance<SectionValues> }) {
  return (
    <QuoteTrial<{ area: number; heatGJ: number }>
      title="计费试算（两部制）"
      hint="一户的热费：按正在编辑的基本热价和计量热价计算。"
      initialValues={{ area: 100, heatGJ: 10 }}
      build={async (inputs) => {
        const v = await form.validateFields([['heat', 'basicPrice'], ['heat', 'heatPrice']]);
        return { method: 'heatTwoPart', params: { basicPrice: v.heat!.basicPrice, heatPrice: v.heat!.heatPrice }, inputs };
      }}
    >
      <FieldGrid>
        <Form.Item name="area" label="供热面积（m²）" rules={[{ required: true, message: '请输入面积' }]}><InputNumber min={0} style={{ width: '100%' }} /></Form.Item>
        <Form.Item name="heatGJ" label="用热量（GJ）" rules={[{ required: true, message: '请输入用热量' }]}><InputNumber min={0} style={{ width: '100%' }} /></Form.Item>
      </FieldGrid>
    </QuoteTrial>
  );
}

function OnOffTrial({ form, onOffScheme }: { form: FormInstance<SectionValues>; onOffScheme: boolean }) {
  // preserve: the price has no input on this screen unless the scheme is 通断时间面积法
  const price = Form.useWatch('price', { form, preserve: true }) as string | undefined;
  return (
    <QuoteTrial<{ buildingHeatGJ: number; rooms: Room[] }>
      title="计费试算（通断时间面积法）"
      hint={onOffScheme
        ? '楼栋热量表的用热量按各户 面积 × 通阀时间 分摊，按正在编辑的楼栋热价计费。'
        : `楼栋热量表的用热量按各户 面积 × 通阀时间 分摊；本项目的方案不是通断时间面积法，试算按项目单价 ${price ?? '—'} 元/GJ。`}
      initialValues={{ buildingHeatGJ: 100, rooms: [{ name: '101', area: 90, hours: 300 }, { name: '102', area: 120, hours: 200 }] }}
      build={async (inputs) => {
        const v = await form.validateFields(['price']);
        return {
          method: 'onOffTimeArea',
          params: { buildingHeatGJ: inputs.buildingHeatGJ, price: v.price! },
          inputs: inputs.rooms.map((r) => ({ id: r.name.trim(), area: r.area, hours: r.hours })),
        };
      }}
    >
      <Form.Item name="buildingHeatGJ" label="楼栋用热量（GJ）" rules={[{ required: true, message: '请输入楼栋用热量' }]}><InputNumber min={0} style={{ width: 200 }} /></Form.Item>
      <Form.List name="rooms" rules={[{ validator: async (_r, rooms: Room[] | undefined) => { if (!rooms?.length) throw new Error('至少一户'); } }]}>
        {(fields, { add, remove }, { errors }) => (
          <>
            <Table
              size="small"
              pagination={false}
              rowKey="key"
              dataSource={fields}
              data-testid="onoff-rooms"
              columns={[
                { title: '房间', key: 'name', render: (_, f) => <Form.Item name={[f.name, 'name']} rules={[{ required: true, message: '请填写' }, { max: 40, message: '最多 40 字' }]} style={{ margin: 0 }}><Input maxLength={40} aria-label="房间" /></Form.Item> },
                { title: '面积（m²）', key: 'area', width: 120, render: (_, f) => <Form.Item name={[f.name, 'area']} rules={[{ required: true, message: '请填写' }]} style={{ margin: 0 }}><InputNumber min={0} style={{ width: '100%' }} aria-label="面积" /></Form.Item> },
                { title: '通阀时间（h）', key: 'hours', width: 120, render: (_, f) => <Form.Item name={[f.name, 'hours']} rules={[{ required: true, message: '请填写' }]} style={{ margin: 0 }}><InputNumber min={0} style={{ width: '100%' }} aria-label="通阀时间" /></Form.Item> },
                { title: '', key: 'op', width: 44, render: (_, f) => <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除该户" disabled={fields.length <= 1} onClick={() => remove(f.name)} /> },
              ]}
            />
            <Button type="dashed" size="small" icon={<PlusOutlined />} style={{ margin: '8px 0 12px' }} onClick={() => add({ name: String(101 + fields.length), area: 100, hours: 0 })}>添加一户</Button>
            <Form.ErrorList errors={errors} />
          </>
        )}
      </Form.List>
    </QuoteTrial>
  );
}

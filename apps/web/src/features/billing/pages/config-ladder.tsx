import { Button, Form, InputNumber, Radio, Select, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { tariffBody, type LadderSection } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { FieldGrid, PriceInput } from '../components/config-fields';
import { addPrices } from '../components/config-price-math';
import { TariffSectionPage } from '../components/config-tariff-section';
import { QuoteTrial } from '../components/quote-trial';

const ladder = tariffBody.shape.ladder.shape;
const MAX_TIERS = 6;
type Tier = LadderSection['tiers'][number];

/** What is wrong with the tiers (the server says the same): bounds ascending, only the last without one. */
export function tierProblem(tiers: Partial<Tier>[]): string | null {
  if (!tiers.length) return '至少一个阶梯';
  for (let i = 0; i < tiers.length; i++) {
    const up = tiers[i]!.upTo;
    const last = i === tiers.length - 1;
    if (last && up != null) return '最后一档不设上限';
    if (!last && (up == null || !(up > 0))) return `请填写第 ${i + 1} 档的上限（大于 0）`;
    if (!last && i > 0 && up! <= tiers[i - 1]!.upTo!) return `第 ${i + 1} 档的上限须大于第 ${i} 档的上限`;
  }
  return null;
}

const tierRange = (tiers: Partial<Tier>[], i: number) => {
  const from = i === 0 ? 0 : tiers[i - 1]?.upTo ?? '?';
  const up = tiers[i]?.upTo;
  return up == null ? `${from} kWh 以上` : `${from} – ${up} kWh`;
};

/**
 * billingrules_n (计费规则): ladder pricing of electricity — per year (from a start month) or per month, tiers by use
 * within the cycle, each adding to the base price (a reading crossing a bound is split across the tiers) — with a
 * 计费试算 of one reading.
 */
export default function LadderPage() {
  return (
    <TariffSectionPage
      title="计费规则"
      code="billingrules_n"
      keys={['ladder', 'price']}
      intro="阶梯电价：结算周期内累计用电量落在哪一档，就按 基础电价 + 该档加价 计费；一次读数跨档时分段计算。"
      historyColumns={[
        { title: '基础电价（元/kWh）', dataIndex: 'price', width: 140, align: 'right' },
        { title: '周期', key: 'cycle', width: 120, render: (_, v) => (v.ladder.cycle === 'year' ? `每年（${v.ladder.startMonth} 月起）` : '每月') },
        { title: '阶梯（上限 kWh：加价 元）', key: 'tiers', width: 300, render: (_, v) => v.ladder.tiers.map((t) => `${t.upTo ?? '以上'}：+${t.add}`).join('；') },
      ]}
      aside={(form) => (
        <QuoteTrial<{ usedBefore: number; use: number }>
          hint="按正在编辑的基础电价和阶梯计算一次用电的费用：已用电量为本周期此前累计的用电量。"
          initialValues={{ usedBefore: 0, use: 100 }}
          build={async (inputs) => {
            const v = await form.validateFields(['price', ['ladder', 'tiers']], { recursive: true });
            // the tiers from the store: the last one's bound (null) has no input, so validateFields leaves it out
            const tiers = (form.getFieldValue(['ladder', 'tiers']) as Tier[]).map((t, i, all) => ({ upTo: i === all.length - 1 ? null : t.upTo, add: t.add }));
            return { method: 'ladder', params: { price: v.price!, tiers }, inputs };
          }}
        >
          <FieldGrid>
            <Form.Item name="usedBefore" label="本周期已用电量（kWh）" rules={[{ required: true, message: '请输入已用电量' }]}><InputNumber min={0} style={{ width: '100%' }} /></Form.Item>
            <Form.Item name="use" label="本次用电量（kWh）" rules={[{ required: true, message: '请输入本次用电量' }]}><InputNumber min={0} style={{ width: '100%' }} /></Form.Item>
          </FieldGrid>
        </QuoteTrial>
      )}
    >
      <LadderFields />
    </TariffSectionPage>
  );
}

function LadderFields() {
  const form = Form.useFormInstance();
  const cycle = Form.useWatch(['ladder', 'cycle'], form) as string | undefined;
  const price = Form.useWatch('price', form) as string | undefined;
  const tiers = ((Form.useWatch(['ladder', 'tiers'], form) ?? []) as Partial<Tier>[]).filter(Boolean);
  const cols = '56px 130px 150px minmax(110px, 1fr) 90px 32px';
  return (
    <>
      <FieldGrid columns={3}>
        <Form.Item name="price" label="基础电价（元/kWh）" rules={[zodRule(tariffBody.shape.price)]}><PriceInput unit="元/kWh" /></Form.Item>
        <Form.Item name={['ladder', 'cycle']} label="阶梯周期" rules={[zodRule(ladder.cycle)]}>
          <Radio.Group optionType="button" options={[{ value: 'year', label: '按年' }, { value: 'month', label: '按月' }]} />
        </Form.Item>
        {cycle === 'year' && (
          <Form.Item name={['ladder', 'startMonth']} label="年度起始月份" rules={[zodRule(ladder.startMonth)]}>
            <Select options={Array.from({ length: 12 }, (_, i) => ({ value: i + 1, label: `${i + 1} 月` }))} />
          </Form.Item>
        )}
      </FieldGrid>
      <Form.Item label="阶梯" required>
        <Form.List
          name={['ladder', 'tiers']}
          rules={[{ validator: async (_r, list: Partial<Tier>[] | undefined) => { const p = tierProblem((list ?? []).filter(Boolean)); if (p) throw new Error(p); } }]}
        >
          {(fields, { add, remove }, { errors }) => (
            <div data-testid="ladder-tiers">
              <div style={{ display: 'grid', gridTemplateColumns: cols, gap: 8, color: 'rgba(0,0,0,0.55)', fontSize: 12, marginBottom: 4 }}>
                <span>档位</span><span>上限（kWh）</span><span>加价（元/kWh）</span><span>用电量范围</span><span>电价（元）</span><span />
              </div>
              {fields.map((f, i) => {
                const last = i === fields.length - 1;
                return (
                  <div key={f.key} data-testid="ladder-tier" style={{ display: 'grid', gridTemplateColumns: cols, gap: 8, alignItems: 'start' }}>
                    <Typography.Text style={{ lineHeight: '32px' }}>第 {i + 1} 档</Typography.Text>
                    {last ? (
                      <Typography.Text type="secondary" style={{ lineHeight: '32px' }}>不设上限</Typography.Text>
                    ) : (
                      <Form.Item name={[f.name, 'upTo']} rules={[{ required: true, message: '请填写上限' }]} style={{ marginBottom: 8 }}>
                        <InputNumber min={1} style={{ width: '100%' }} aria-label={`第 ${i + 1} 档上限`} />
                      </Form.Item>
                    )}
                    <Form.Item name={[f.name, 'add']} rules={[zodRule(ladder.tiers.element.shape.add)]} style={{ marginBottom: 8 }}>
                      <PriceInput unit="元" placeholder="如 0.05" />
                    </Form.Item>
                    <Typography.Text style={{ lineHeight: '32px' }}>{tierRange(tiers, i)}</Typography.Text>
                    <Typography.Text style={{ lineHeight: '32px' }}>{addPrices(price, tiers[i]?.add) ?? '—'}</Typography.Text>
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${i + 1} 档`} disabled={fields.length <= 1} onClick={() => {
                      remove(f.name);
                      // the tier that is now last takes no bound
                      const rest = ((form.getFieldValue(['ladder', 'tiers']) ?? []) as Tier[]).slice();
                      if (rest.length) {
                        rest[rest.length - 1] = { ...rest[rest.length - 1]!, upTo: null };
                        form.setFieldValue(['ladder', 'tiers'], rest);
                      }
                    }} />
                  </div>
                );
              })}
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_TIERS} onClick={() => add({ upTo: undefined, add: '0' }, Math.max(fields.length - 1, 0))}>
                添加阶梯
              </Button>
              <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>新阶梯插在最后一档之前；最后一档不设上限</Typography.Text>
              <Form.ErrorList errors={errors} />
            </div>
          )}
        </Form.List>
      </Form.Item>
    </>
  );
}

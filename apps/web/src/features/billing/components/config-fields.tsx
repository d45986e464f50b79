import type { ReactNode } from 'react';
import { Form, Input, InputNumber, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { BILLING_METHODS, BILLING_SCHEMES, METHOD_FIELDS, schemeOf, tariffBody, type TariffVersionDto } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { parseYuan } from '../../accounts';

/**
 * The fields the tariff screens share, bound to the tariff document's own paths (['k', 'low'], ['accounting',
 * 'closeDay'] …) and checked with the contracts' zod pieces, so the browser says what the server would.
 */
const t = tariffBody.shape;

/** 元 text (≤ 4 decimals): kept as typed, never turned into a float. */
export function PriceInput({ unit = '元', ...props }: { id?: string; value?: string; onChange?: (v: string) => void; unit?: string; disabled?: boolean; placeholder?: string }) {
  return <Input {...props} onChange={(e) => props.onChange?.(e.target.value)} inputMode="decimal" suffix={unit} maxLength={12} placeholder={props.placeholder ?? '如 1.2 或 0.5283'} />;
}

/** A coefficient as text (0–100, ≤ 4 decimals). */
export function FactorInput(props: { id?: string; value?: string; onChange?: (v: string) => void; disabled?: boolean; placeholder?: string }) {
  return <Input {...props} onChange={(e) => props.onChange?.(e.target.value)} inputMode="decimal" maxLength={9} placeholder={props.placeholder ?? '如 0.8'} />;
}

export function methodOfScheme(value: number | null | undefined) {
  return schemeOf(value)?.method ?? null;
}

/** The 21 schemes: number, name, 预付费/后付费 and the method. */
export function SchemeSelect(props: { id?: string; value?: number; onChange?: (v: number) => void; disabled?: boolean }) {
  return (
    <Select
      {...props}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="请选择计费方案"
      popupMatchSelectWidth={false}
      options={BILLING_SCHEMES.map((s) => ({ value: s.value, label: `${s.value}. ${s.name}`, scheme: s }))}
      optionRender={(o) => {
        const s = schemeOf(o.value as number)!;
        return (
          <Space size={6}>
            <span style={{ minWidth: 20, display: 'inline-block', textAlign: 'right' }}>{s.value}.</span>
            <span>{s.name}</span>
            <Tag color={s.prepaid ? 'blue' : 'orange'} style={{ marginInlineEnd: 0 }}>{s.prepaid ? '预付费' : '后付费'}</Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>{BILLING_METHODS[s.method]}</Typography.Text>
          </Space>
        );
      }}
    />
  );
}

/** "预付费 · 时间当量" under the select: what the chosen scheme does. */
export function SchemeHint({ scheme }: { scheme: number | null | undefined }) {
  const s = schemeOf(scheme);
  if (!s) return null;
  return (
    <Space size={6}>
      <Tag color={s.prepaid ? 'blue' : 'orange'}>{s.prepaid ? '预付费（随用随扣余额）' : '后付费（按结算周期出账单）'}</Tag>
      <Typography.Text type="secondary">计费方法：{BILLING_METHODS[s.method]}</Typography.Text>
    </Space>
  );
}

export function SchemeItem() {
  const form = Form.useFormInstance();
  const scheme = Form.useWatch('scheme', form) as number | undefined;
  return (
    <Form.Item name="scheme" label="计费方案" rules={[zodRule(t.scheme)]} extra={<SchemeHint scheme={scheme} />}>
      <SchemeSelect />
    </Form.Item>
  );
}

/** 单价 with the unit of the chosen scheme's method (元/h of T_eq, 元/kWh, 元/GJ …). */
export function UnitPriceItem({ label }: { label?: string }) {
  const form = Form.useFormInstance();
  const scheme = Form.useWatch('scheme', form) as number | undefined;
  const method = methodOfScheme(scheme);
  const unit = method ? `元/${METHOD_FIELDS[method].unit}` : '元';
  return (
    <Form.Item name="price" label={label ?? `单价（${unit}）`} rules={[zodRule(t.price)]}>
      <PriceInput unit={unit} />
    </Form.Item>
  );
}

export function SpeedFactorItems() {
  const k = t.k.shape;
  const extra = 'T当量 = Σ k × 该风速运行时间';
  return (
    <FieldGrid columns={3}>
      <Form.Item name={['k', 'low']} label="低速系数 k" rules={[zodRule(k.low)]} extra={extra}><FactorInput /></Form.Item>
      <Form.Item name={['k', 'mid']} label="中速系数 k" rules={[zodRule(k.mid)]}><FactorInput /></Form.Item>
      <Form.Item name={['k', 'high']} label="高速系数 k" rules={[zodRule(k.high)]}><FactorInput /></Form.Item>
    </FieldGrid>
  );
}

export function OvertimePriceItem() {
  return (
    <Form.Item name="overtimePrice" label="超时单价（元/h）" rules={[zodRule(t.overtimePrice)]} extra="超时池中登记的加班时长按此单价计费">
      <PriceInput unit="元/h" />
    </Form.Item>
  );
}

export function AccountingItems() {
  const a = t.accounting.shape;
  return (
    <div style={{ display: 'flex', gap: 16 }}>
      <Form.Item name={['accounting', 'closeDay']} label="结算日（每月几日）" rules={[zodRule(a.closeDay)]} extra="当日 00:00 结束一个结算周期" style={{ flex: 1 }}>
        <InputNumber min={1} max={28} precision={0} style={{ width: '100%' }} suffix="日" />
      </Form.Item>
      <Form.Item name={['accounting', 'dueDays']} label="缴费期限" rules={[zodRule(a.dueDays)]} extra="出账后多少天内缴清，逾期标记为已逾期" style={{ flex: 1 }}>
        <InputNumber min={1} max={90} precision={0} style={{ width: '100%' }} suffix="天" />
      </Form.Item>
    </div>
  );
}

/** 项目参数 and 4G 计费方案 both edit these: the scheme, its unit price, the overtime price, the fan-speed k. */
export function SchemePriceItems() {
  return (
    <>
      <SchemeItem />
      <FieldGrid>
        <UnitPriceItem />
        <OvertimePriceItem />
      </FieldGrid>
      <SpeedFactorItems />
    </>
  );
}

/** …and their history shows these. */
export const SCHEME_PRICE_COLUMNS: TableColumnsType<TariffVersionDto> = [
  { title: '单价（元）', dataIndex: 'price', width: 100, align: 'right' },
  { title: '风速系数（低/中/高）', key: 'k', width: 150, render: (_, v) => `${v.k.low} / ${v.k.mid} / ${v.k.high}` },
  { title: '超时单价（元/h）', dataIndex: 'overtimePrice', width: 130, align: 'right' },
];

/** A two-column grid of form items. */
export function FieldGrid({ children, columns = 2 }: { children: ReactNode; columns?: number }) {
  return <div style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, columnGap: 16 }}>{children}</div>;
}

/** 元 text that may be 0 (a base fee, a public cost) → fen; parseYuan for the rest (digit-wise, ≤ 2 decimals). */
export function yuanOrZeroToFen(input: string | undefined | null): { ok: true; fen: number } | { ok: false; message: string } {
  const text = (input ?? '').trim();
  if (/^0+(\.0{0,2})?$/.test(text)) return { ok: true, fen: 0 };
  return parseYuan(text);
}

/** A form rule for 元 text that may be 0. */
export const yuanOrZeroRule = (label: string) => ({
  validator: async (_r: unknown, v: string | undefined) => {
    if (!v?.trim()) throw new Error(`请输入${label}`);
    const r = yuanOrZeroToFen(v);
    if (!r.ok) throw new Error(r.message);
  },
});

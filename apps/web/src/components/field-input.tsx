import { Input, InputNumber, Radio, Select, TimePicker, Typography } from 'antd';
import type { DeviceTypeDef, FieldDef } from '@kelvin/contracts/device-types';
import { allowedRange, narrowedField, validateFieldWrite, type FieldWriteCheck } from '@kelvin/contracts/device-registry';
import type { FieldValue } from '@kelvin/contracts/device';
import { dayjs } from '../lib/time';

/** Current values of the device(s) written to: their own limits narrow the registry range. */
export type FieldLimitsFrom = readonly Record<string, unknown>[];

/** The check of a value about to be written (the server's own rules, narrowed by the devices' limits); null while empty. */
export function checkFieldValue(def: DeviceTypeDef, field: FieldDef, value: FieldValue | null | undefined, limitsFrom: FieldLimitsFrom = []): FieldWriteCheck | null {
  if (value === null || value === undefined || value === '') return null;
  return validateFieldWrite(def, field.code, value, limitsFrom);
}

/**
 * The one input for a writable registry field, wherever device fields are written: buttons or a select for enums, a
 * number box for numbers, a time picker for HH:MM. Numbers are never clamped: a value outside the allowed range (the
 * registry's, narrowed by the devices' own limits) stays as typed and the range is shown as an error under it.
 */
export function FieldInput(props: {
  def: DeviceTypeDef;
  field: FieldDef;
  value: FieldValue | null | undefined;
  onChange(v: FieldValue | undefined): void;
  limitsFrom?: FieldLimitsFrom;
  size?: 'small' | 'middle';
  width?: number;
  testId?: string;
}) {
  const { def, field, value, onChange, limitsFrom = [], size = 'middle', testId } = props;
  const width = props.width ?? (size === 'small' ? 160 : 220);
  const check = checkFieldValue(def, field, value, limitsFrom);
  const error = check && !check.ok ? check.message : null;

  let control;
  if (field.kind === 'enum' || field.kind === 'bool') {
    const options = Object.entries(field.options ?? {}).map(([v, label]) => ({ value: Number(v), label }));
    control = options.length <= 4
      ? <Radio.Group optionType="button" buttonStyle="solid" size={size} options={options} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
      : <Select size={size} style={{ width }} options={options} value={value as number | undefined} onChange={onChange} placeholder="请选择" data-testid={testId} />;
  } else if (field.kind === 'time') {
    control = (
      <TimePicker size={size} style={{ width }} format="HH:mm" minuteStep={1} needConfirm={false} allowClear={false} placeholder="HH:MM"
        value={typeof value === 'string' && dayjs(value, 'HH:mm').isValid() ? dayjs(value, 'HH:mm') : null}
        onChange={(t) => onChange(t ? t.format('HH:mm') : undefined)} data-testid={testId} />
    );
  } else if (field.kind === 'number') {
    control = (
      <InputNumber size={size} style={{ width }} step={field.step} suffix={field.unit || undefined} status={error ? 'error' : undefined}
        placeholder={allowedRange(narrowedField(field, limitsFrom))} value={typeof value === 'number' ? value : null}
        onChange={(v) => onChange(v ?? undefined)} aria-label={field.label} data-testid={testId} />
    );
  } else {
    control = <Input size={size} style={{ width }} maxLength={64} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} aria-label={field.label} data-testid={testId} />;
  }

  return (
    <div>
      {control}
      {error
        ? <Typography.Text type="danger" role="alert" style={{ display: 'block', fontSize: 12 }}>{error}</Typography.Text>
        : field.kind === 'number' && (
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>允许：{allowedRange(narrowedField(field, limitsFrom))}</Typography.Text>
        )}
    </div>
  );
}

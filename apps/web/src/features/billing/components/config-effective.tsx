import { DatePicker, Form, Radio } from 'antd';
import type { Dayjs } from 'dayjs';

/** 生效时间 of a change: 立即生效 (the moment it is sent) or a chosen time. */
export type EffectiveValues = { when: 'now' | 'at'; effectiveAt?: Dayjs | null };

export function effectiveFromOf(v: EffectiveValues): number {
  return v.when === 'at' && v.effectiveAt ? v.effectiveAt.valueOf() : Date.now();
}

export function EffectiveItems({ extra }: { extra?: string }) {
  const form = Form.useFormInstance();
  const when = Form.useWatch('when', form) as EffectiveValues['when'] | undefined;
  return (
    <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
      <Form.Item name="when" label="生效时间" initialValue="now" extra={extra}>
        <Radio.Group options={[{ value: 'now', label: '立即生效' }, { value: 'at', label: '指定时间' }]} />
      </Form.Item>
      {when === 'at' && (
        <Form.Item name="effectiveAt" label="生效于" rules={[{ required: true, message: '请选择生效时间' }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 200 }} />
        </Form.Item>
      )}
    </div>
  );
}

import { useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Empty, Popover, Select, Space, Tabs, TimePicker, Typography } from 'antd';
import { CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { DeviceTypeDef, FieldDef } from '@kelvin/contracts/device-types';
import type { FieldValue } from '@kelvin/contracts/device';
import { FieldInput } from '../../../components/field-input';
import { dayjs } from '../../../lib/time';
import { MAX_SLOTS_PER_DAY, WEEKDAYS, copyDay, nextSlot, sortSlots, validateWeek, type SlotDraft, type WeekDraft } from '../week-model';
import { WeekTimeline } from './week-timeline';

/**
 * The fields one slot (or one task) writes: a FieldInput per chosen field, × to drop it, + 添加参数 for the others.
 */
export function WritesEditor({ def, fields, value, onChange, disabled }: {
  def: DeviceTypeDef; fields: FieldDef[]; value: Record<string, FieldValue>; disabled?: boolean; onChange(v: Record<string, FieldValue>): void;
}) {
  const unused = fields.filter((f) => !(f.code in value));
  const drop = (code: string) => onChange(Object.fromEntries(Object.entries(value).filter(([c]) => c !== code)));
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: '8px 24px' }}>
      {fields.filter((f) => f.code in value).map((f) => (
        <div key={f.code} style={{ display: 'flex', alignItems: 'flex-start', gap: 6 }}>
          <Typography.Text style={{ lineHeight: '24px', minWidth: 56 }}>{f.label}</Typography.Text>
          <FieldInput def={def} field={f} size="small" width={130} value={value[f.code]} testId={`write-${f.code}`}
            onChange={(v) => onChange({ ...value, [f.code]: v as FieldValue })} />
          {!disabled && <Button type="text" size="small" aria-label={`移除${f.label}`} onClick={() => drop(f.code)}>×</Button>}
        </div>
      ))}
      {!disabled && unused.length > 0 && (
        <Select size="small" style={{ width: 140 }} placeholder="+ 添加参数" value={null} data-testid="add-field"
          options={unused.map((f) => ({ value: f.code, label: f.label }))}
          onChange={(code: string) => onChange({ ...value, [code]: fields.find((f) => f.code === code)!.initial })} />
      )}
    </div>
  );
}

/** Fields a program sets first (when the type has them): power, mode, set temperature, fan speed. */
const PREFERRED = ['f00', 'f01', 'f04', 'f02'];

export function programFields(def: DeviceTypeDef): FieldDef[] {
  // hidden fields (a memory thermostat's stored program) are written by the server only
  const writable = def.fields.filter((f) => f.writable && !f.hidden);
  return [...writable.filter((f) => PREFERRED.includes(f.code)).sort((a, b) => PREFERRED.indexOf(a.code) - PREFERRED.indexOf(b.code)),
    ...writable.filter((f) => !PREFERRED.includes(f.code))];
}

/** The values a new program's first slot starts with: on, and the set temperature (or the type's first writable field). */
export function defaultWrites(def: DeviceTypeDef): Record<string, FieldValue> {
  const fields = programFields(def);
  const pick = fields.filter((f) => f.code === 'f00' || f.code === 'f04');
  return Object.fromEntries((pick.length ? pick : fields.slice(0, 1)).map((f) => [f.code, f.code === 'f00' ? 1 : f.initial]));
}

/** 复制到…: this day's slots onto chosen days (工作日 / 周末 / 每天 shortcuts). */
function CopyDay({ day, onCopy }: { day: number; onCopy(to: number[]): void }) {
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState<number[]>([]);
  const quick = (days: number[]) => setTo(days.filter((d) => d !== day));
  return (
    <Popover
      open={open}
      onOpenChange={(o) => { setOpen(o); if (o) setTo([]); }}
      trigger="click"
      title={`把${WEEKDAYS[day]}的时段复制到`}
      content={(
        <div style={{ width: 260 }}>
          <Space size={4} style={{ marginBottom: 8 }}>
            <Button size="small" onClick={() => quick([0, 1, 2, 3, 4])}>工作日</Button>
            <Button size="small" onClick={() => quick([5, 6])}>周末</Button>
            <Button size="small" onClick={() => quick([0, 1, 2, 3, 4, 5, 6])}>每天</Button>
          </Space>
          <Checkbox.Group value={to} onChange={(v) => setTo(v as number[])}
            options={WEEKDAYS.map((label, d) => ({ label, value: d, disabled: d === day }))} />
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '8px 0' }}>所选日期原有的时段会被替换。</Typography.Paragraph>
          <Button type="primary" size="small" disabled={!to.length} onClick={() => { onCopy(to); setOpen(false); }}>复制</Button>
        </div>
      )}
    >
      <Button size="small" icon={<CopyOutlined />}>复制到…</Button>
    </Popover>
  );
}

function SlotCard({ def, fields, slot, index, problems, disabled, onChange, onRemove }: {
  def: DeviceTypeDef; fields: FieldDef[]; slot: SlotDraft; index: number; problems: string[]; disabled?: boolean;
  onChange(s: SlotDraft): void; onRemove(): void;
}) {
  return (
    <Card size="small" data-testid={`slot-${index}`} style={{ borderColor: problems.length ? '#ff4d4f' : undefined }}
      title={(
        <Space>
          <span>时段 {index + 1}</span>
          <TimePicker size="small" format="HH:mm" minuteStep={1} needConfirm={false} allowClear={false} disabled={disabled}
            value={dayjs(slot.time, 'HH:mm').isValid() ? dayjs(slot.time, 'HH:mm') : null} aria-label="开始时间" data-testid="slot-time"
            onChange={(t) => t && onChange({ ...slot, time: t.format('HH:mm') })} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>起执行</Typography.Text>
        </Space>
      )}
      extra={!disabled && <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label="删除时段">删除</Button>}
    >
      <WritesEditor def={def} fields={fields} value={slot.writes} disabled={disabled} onChange={(writes) => onChange({ ...slot, writes })} />
      {problems.map((p) => <Typography.Text key={p} type="danger" style={{ display: 'block', fontSize: 12 }}>{p}</Typography.Text>)}
    </Card>
  );
}

/**
 * THE week program editor (编程设置, 温控器编程 and 编程方案 share it): a tab per weekday with its time slots — each
 * slot sets writable registry fields through the shared FieldInput, checked with the server's own rules — 复制到… for
 * the rest of the week, and the week's timeline under it.
 */
export function WeekProgramEditor({ def, value, onChange, disabled }: {
  def: DeviceTypeDef;
  value: WeekDraft;
  onChange(w: WeekDraft): void;
  disabled?: boolean;
}) {
  const [day, setDay] = useState(() => (dayjs().day() + 6) % 7);
  const fields = programFields(def);
  const problems = validateWeek(def, value);
  const setDaySlots = (d: number, slots: SlotDraft[]) => onChange(value.map((s, i) => (i === d ? slots : s)));
  const slots = value[day] ?? [];

  return (
    <div data-testid="week-program-editor">
      <Tabs
        activeKey={String(day)}
        onChange={(k) => {
          // leaving a day puts its slots in time order
          setDaySlots(day, sortSlots(slots));
          setDay(Number(k));
        }}
        items={WEEKDAYS.map((label, d) => ({
          key: String(d),
          label: (
            <Badge size="small" count={value[d]?.length ?? 0} color={problems.some((p) => p.day === d) ? 'red' : '#8c8c8c'} offset={[8, -2]} showZero={false}>
              <span>{label}</span>
            </Badge>
          ),
        }))}
      />
      <Space style={{ marginBottom: 8 }} wrap>
        {!disabled && (
          <Button size="small" type="dashed" icon={<PlusOutlined />} disabled={slots.length >= MAX_SLOTS_PER_DAY}
            onClick={() => setDaySlots(day, [...sortSlots(slots), nextSlot(slots, defaultWrites(def))])}>
            添加时段
          </Button>
        )}
        {!disabled && slots.length > 0 && <CopyDay day={day} onCopy={(to) => onChange(copyDay(value, day, to))} />}
        {!disabled && slots.length > 1 && <Button size="small" onClick={() => setDaySlots(day, sortSlots(slots))}>按时间排序</Button>}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>每个时段从开始时间起生效，直到下一个时段；每天最多 {MAX_SLOTS_PER_DAY} 个。</Typography.Text>
      </Space>
      {slots.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`${WEEKDAYS[day]}没有时段，沿用前一天最后的设置`} />
      ) : (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
          {slots.map((s, i) => (
            <SlotCard key={i} def={def} fields={fields} slot={s} index={i} disabled={disabled}
              problems={problems.filter((p) => p.day === day && p.slot === i).map((p) => p.message.replace(/^.*?时段：/, ''))}
              onChange={(n) => setDaySlots(day, slots.map((x, j) => (j === i ? n : x)))}
              onRemove={() => setDaySlots(day, slots.filter((_, j) => j !== i))} />
          ))}
        </div>
      )}
      {problems.some((p) => p.day !== day) && (
        <Alert type="error" showIcon style={{ marginTop: 8 }} message="其他日期有问题"
          description={problems.filter((p) => p.day !== day).slice(0, 5).map((p) => <div key={`${p.day}-${p.slot}-${p.message}`}>{p.message}</div>)} />
      )}
      <Card size="small" title="一周预览" style={{ marginTop: 12 }}>
        <WeekTimeline def={def} week={value} today={(dayjs().day() + 6) % 7} />
      </Card>
    </div>
  );
}

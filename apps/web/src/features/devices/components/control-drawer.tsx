import { useEffect, useRef, useState } from 'react';
import { Alert, App, Descriptions, Drawer, Empty, InputNumber, Radio, Select, Space, Table, TimePicker, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { FieldDef } from '@kelvin/contracts/device-types';
import { DEVICE_ACTION_LABELS, DEVICE_TYPE_BY_CODE, allowedRange, fieldDisplay, validateFieldWrite } from '@kelvin/contracts/device-registry';
import { FINISHED_COMMAND_STATUSES, type CommandView, type FieldValue, type LiveCommandEvent } from '@kelvin/contracts/device';
import { PreventClickButton, useIsMobile } from '../../../lib/ui';
import { dayjs, formatDateTime } from '../../../lib/time';
import { commandEvents, deviceApi } from '../api';
import { CommandStatusTag, OnlineBadge, isOnline, useNow } from './device-bits';

/** A writable field as a proper control: switch-like buttons or a select for enums, a bounded number, HH:MM. */
function FieldControl({ field, value, onChange }: { field: FieldDef; value: FieldValue | undefined; onChange(v: FieldValue | undefined): void }) {
  if (field.kind === 'enum' || field.kind === 'bool') {
    const options = Object.entries(field.options ?? {}).map(([v, label]) => ({ value: Number(v), label }));
    return options.length <= 4
      ? <Radio.Group optionType="button" buttonStyle="solid" size="small" options={options} value={value} onChange={(e) => onChange(e.target.value)} />
      : <Select size="small" style={{ width: 160 }} options={options} value={value as number | undefined} onChange={onChange} placeholder="请选择" />;
  }
  if (field.kind === 'time') {
    return (
      <TimePicker size="small" format="HH:mm" minuteStep={1} needConfirm={false} allowClear={false}
        value={typeof value === 'string' ? dayjs(value, 'HH:mm') : null}
        onChange={(t) => onChange(t ? t.format('HH:mm') : undefined)} />
    );
  }
  return (
    <InputNumber size="small" style={{ width: 150 }} min={field.min} max={field.max} step={field.step}
      suffix={field.unit || undefined} value={typeof value === 'number' ? value : undefined}
      onChange={(v) => onChange(v ?? undefined)} aria-label={field.label} />
  );
}

/**
 * The control drawer of a device: every writable field of its registry entry as a control, the operations it
 * supports, and the fate of each command sent from here (等待下发 → 已下发 → 已执行 / 设备拒绝 / 已过期), live.
 */
export function ControlDrawer({ deviceId, onClose }: { deviceId: number | null; onClose(): void }) {
  const { message } = App.useApp();
  const now = useNow();
  const mobile = useIsMobile();
  const detail = useQuery({ queryKey: ['devices', 'detail', deviceId], queryFn: () => deviceApi.detail(deviceId!), enabled: deviceId !== null });
  const device = detail.data;
  const def = device ? DEVICE_TYPE_BY_CODE.get(device.deviceType) : undefined;
  const [drafts, setDrafts] = useState<Record<string, FieldValue | undefined>>({});
  const [issued, setIssued] = useState<CommandView[]>([]);

  useEffect(() => {
    setDrafts({});
    setIssued([]);
  }, [deviceId]);

  // status changes arrive on the live stream; a slow poll covers a stream that is reconnecting
  const issuedRef = useRef(issued);
  useEffect(() => {
    issuedRef.current = issued;
  }, [issued]);
  useEffect(() => {
    const refresh = async (id: number) => {
      const c = await deviceApi.command(id).catch(() => null);
      if (c) setIssued((list) => list.map((x) => (x.id === c.id ? c : x)));
    };
    const onEvent = (e: Event) => {
      const { commandId } = (e as CustomEvent<LiveCommandEvent>).detail;
      if (issuedRef.current.some((x) => x.id === commandId)) void refresh(commandId);
    };
    commandEvents.addEventListener('command', onEvent);
    const poll = setInterval(() => {
      for (const c of issuedRef.current) if (!FINISHED_COMMAND_STATUSES.has(c.status)) void refresh(c.id);
    }, 3000);
    return () => {
      commandEvents.removeEventListener('command', onEvent);
      clearInterval(poll);
    };
  }, []);

  const send = async (field: FieldDef) => {
    const value = drafts[field.code] ?? device?.fields[field.code];
    const check = validateFieldWrite(def!, field.code, value);
    if (!check.ok) return void message.warning(check.message);
    const res = await deviceApi.write(device!.id, field.code, check.value);
    setIssued((list) => [res.command, ...list]);
    message.success(res.status === 'pending' ? '设备当前不在线，指令将在设备上线后下发' : '指令已下发');
  };
  const operate = async (action: string) => {
    const res = await deviceApi.operate(device!.id, action);
    setIssued((list) => [res.command, ...list]);
  };

  const writable = def?.fields.filter((f) => f.writable) ?? [];
  const current = (f: FieldDef) => <span data-testid={`current-${f.code}`}>{fieldDisplay(def!, f.code, device!.fields[f.code])}</span>;
  return (
    <Drawer open={deviceId !== null} onClose={onClose} size={mobile ? '100%' : 600} destroyOnHidden styles={mobile ? { body: { padding: 12 } } : undefined}
      title={device ? `设备控制 · ${device.deviceName}` : '设备控制'} data-testid="control-drawer">
      {!device || !def ? <Empty description={detail.isLoading ? '加载中…' : '设备不存在'} /> : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions size="small" column={mobile ? 1 : 2} bordered styles={{ label: { whiteSpace: 'nowrap' } }} items={[
            { key: 'code', label: '设备编号', children: device.deviceCode },
            { key: 'type', label: '设备类型', children: def.name },
            { key: 'online', label: '状态', children: <OnlineBadge online={isOnline(device, now)} /> },
            { key: 'last', label: '最后上报', children: device.lastReportAt ? formatDateTime(device.lastReportAt) : '从未上报' },
            { key: 'area', label: '位置', span: mobile ? 1 : 2, children: device.areaPath || '—' },
          ]} />
          {def.sleeps && <Alert type="info" showIcon title="4G 设备间歇唤醒：指令保存在服务器，设备下次唤醒上线时下发（有效期 6 小时）。" />}
          <Table<FieldDef>
            size="small"
            rowKey="code"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={writable}
            columns={[
              // on a phone the current value sits under the parameter's name, so 设定 and 下发 fit the width
              {
                title: '参数', dataIndex: 'label', width: mobile ? 88 : 110,
                render: (label: string, f) => (mobile ? <>{label}<div style={{ color: 'rgba(0,0,0,0.55)', fontSize: 12 }}>{current(f)}</div></> : label),
              },
              ...(mobile ? [] : [{ title: '当前值', key: 'now', width: 110, render: (_: unknown, f: FieldDef) => current(f) }]),
              {
                title: '设定', key: 'set',
                render: (_, f) => (
                  <div>
                    <FieldControl field={f} value={drafts[f.code] ?? device.fields[f.code]} onChange={(v) => setDrafts((d) => ({ ...d, [f.code]: v }))} />
                    {f.kind === 'number' && <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>{allowedRange(f)}</Typography.Text>}
                  </div>
                ),
              },
              { title: '操作', key: 'op', width: 70, render: (_, f) => <PreventClickButton size="small" type="primary" onClick={() => void send(f)} data-testid={`send-${f.code}`}>下发</PreventClickButton> },
            ]}
          />
          {def.actions.length > 0 && (
            <Space wrap>
              {def.actions.map((a) => <PreventClickButton key={a} size="small" onClick={() => void operate(a)}>{DEVICE_ACTION_LABELS[a]}</PreventClickButton>)}
            </Space>
          )}
          <Table<CommandView>
            size="small"
            rowKey="id"
            title={() => '本次下发的指令'}
            pagination={false}
            locale={{ emptyText: '尚未下发指令' }}
            scroll={{ x: 'max-content' }}
            dataSource={issued}
            columns={[
              { title: '时间', dataIndex: 'createdAt', width: 150, render: (v) => formatDateTime(v) },
              { title: '内容', dataIndex: 'description' },
              { title: '结果', dataIndex: 'status', width: 100, render: (s, c) => <span title={c.error ?? undefined}><CommandStatusTag status={s} /></span> },
              { title: '说明', dataIndex: 'error', width: 150, ellipsis: true, render: (v) => v ?? '' },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

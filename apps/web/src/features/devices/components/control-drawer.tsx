import { useEffect, useState } from 'react';
import { Alert, App, Descriptions, Empty, Space, Table } from 'antd';
import type { FieldDef } from '@kelvin/contracts/device-types';
import { DEVICE_ACTION_LABELS, DEVICE_TYPE_BY_CODE, fieldDisplay } from '@kelvin/contracts/device-registry';
import type { CommandView, FieldValue } from '@kelvin/contracts/device';
import { PreventClickButton, useIsMobile } from '../../../lib/ui';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, useDeviceDetail } from '../api';
import { FieldInput, checkFieldValue } from '../../../components/field-input';
import { useIssuedCommands } from './issued-commands';
import { CommandStatusTag, OnlineBadge, isOnline, useNow } from './device-bits';
import { AppDrawer } from '../../../components/app-drawer';

/**
 * The control drawer of a device: every writable field of its registry entry as a control, the operations it
 * supports, and the fate of each command sent from here (等待下发 → 已下发 → 已执行 / 设备拒绝 / 已过期), live.
 */
export function ControlDrawer({ deviceId, onClose }: { deviceId: number | null; onClose(): void }) {
  const { message } = App.useApp();
  const now = useNow();
  const mobile = useIsMobile();
  const detail = useDeviceDetail(deviceId);
  const device = detail.data;
  const def = device ? DEVICE_TYPE_BY_CODE.get(device.deviceType) : undefined;
  const [drafts, setDrafts] = useState<Record<string, FieldValue | undefined>>({});
  const { issued, add } = useIssuedCommands(deviceId);

  useEffect(() => {
    setDrafts({});
  }, [deviceId]);

  const send = async (field: FieldDef) => {
    const value = field.code in drafts ? drafts[field.code] : device!.fields[field.code];
    const check = checkFieldValue(def!, field, value, [device!.fields]);
    if (!check?.ok) return void message.warning(check?.message ?? `请输入${field.label}`);
    const res = await deviceApi.write(device!.id, field.code, check.value);
    add(res.command);
    message.success(res.status === 'pending' ? '设备当前不在线，指令将在设备上线后下发' : '指令已下发');
  };
  const operate = async (action: string) => {
    const res = await deviceApi.operate(device!.id, action);
    add(res.command);
  };

  const writable = def?.fields.filter((f) => f.writable && !f.hidden) ?? [];
  const current = (f: FieldDef) => <span data-testid={`current-${f.code}`}>{fieldDisplay(def!, f.code, device!.fields[f.code])}</span>;
  return (
    <AppDrawer open={deviceId !== null} onClose={onClose} size={mobile ? '100%' : 600} destroyOnHidden styles={mobile ? { body: { padding: 12 } } : undefined}
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
                  <FieldInput def={def} field={f} size="small" limitsFrom={[device.fields]} value={f.code in drafts ? drafts[f.code] : device.fields[f.code]}
                    onChange={(v) => setDrafts((d) => ({ ...d, [f.code]: v }))} />
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
    </AppDrawer>
  );
}

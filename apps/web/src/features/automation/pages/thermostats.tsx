import { useState } from 'react';
import { Badge, Empty, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DEVICE_TYPE_BY_CODE, fieldDisplay } from '@kelvin/contracts/device-registry';
import type { DeviceRow } from '@kelvin/contracts/device';
import { formatTime } from '@kelvin/contracts/device-registry';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { dayjs, formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys, useDeviceTypes, useLiveDevices } from '../../devices';
import { automationApi, automationKeys } from '../api';
import { inForce, segmentLabel } from '../week-model';

/** The programs that apply to a device, and the setting in force now (asked per row, cached per device). */
function AppliedProgram({ device }: { device: DeviceRow }) {
  const q = useQuery({ queryKey: automationKeys.programsBy('device', device.id), queryFn: () => automationApi.programsByDevice(device.id), staleTime: 60_000 });
  if (q.isLoading) return <Typography.Text type="secondary">…</Typography.Text>;
  const list = (q.data ?? []).filter((p) => p.enabled);
  if (!list.length) return <Typography.Text type="secondary">无</Typography.Text>;
  const def = DEVICE_TYPE_BY_CODE.get(device.deviceType);
  return (
    <Space direction="vertical" size={0}>
      {list.map((p) => {
        const t = dayjs();
        const now = inForce(p.slots, (t.day() + 6) % 7, t.hour() * 60 + t.minute());
        return (
          <Tooltip key={p.id} title={p.description.join('\n') || '无时段'}>
            <span data-testid="applied-program">
              {p.name}
              {now && def && <Typography.Text type="secondary">（{formatTime(now.from)} 起 {segmentLabel(def, now.state)}）</Typography.Text>}
              {p.memory && <Tag color="purple" style={{ marginLeft: 4 }}>设备内存</Tag>}
            </span>
          </Tooltip>
        );
      })}
    </Space>
  );
}

const SHOWN = ['f00', 'f01', 'f03', 'f04', 'f02', 'f06', 'f10'];

/**
 * /businessSys/thermostat/:projectId? (温控器管理): the project's thermostats with their live state (SSE) and the
 * week program that applies to each, with what it holds right now.
 */
export default function ThermostatsPage() {
  const projectId = useProjectId();
  useLiveDevices(projectId);
  const types = useDeviceTypes(projectId);
  const thermostatTypes = (types.data ?? []).filter((t) => {
    const c = DEVICE_TYPE_BY_CODE.get(t.code)?.category;
    return (c === 'thermostat' || c === 'billingThermostat') && t.total > 0;
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const type = chosen && thermostatTypes.some((t) => t.code === chosen) ? chosen : thermostatTypes[0]?.code ?? null;
  const def = type ? DEVICE_TYPE_BY_CODE.get(type) : undefined;

  if (projectId === null) return <NoProject title="温控器管理" />;
  const fields = def ? SHOWN.map((c) => def.fields.find((f) => f.code === c)).filter((f) => !!f) : [];
  return (
    <PageContainer title="温控器管理" extra={<Link to="/businessSys/thermostatprogram">温控器编程 →</Link>}>
      {types.isLoading ? null : !def ? <Empty description="本项目没有温控器" /> : (
        <>
          {thermostatTypes.length > 1 && (
            <Segmented value={type!} onChange={(v) => setChosen(String(v))} options={thermostatTypes.map((t) => ({ value: t.code, label: `${t.name}（${t.online}/${t.total}）` }))} />
          )}
          <DataTable<DeviceRow>
            queryKey={deviceKeys.list(`thermostats-${type}`)}
            fetchPage={deviceApi.list}
            params={{ projectId, deviceType: type! }}
            rowKey="id"
            filters={[{ name: 'keyword', label: '设备', placeholder: '设备编号或名称' }, { name: 'online', label: '在线', kind: 'select', width: 110, options: [{ value: '1', label: '在线' }, { value: '0', label: '离线' }] }]}
            columns={[
              { title: '设备', key: 'device', width: 200, render: (_, d) => <span>{d.deviceName}<br /><Typography.Text type="secondary">{d.deviceCode}</Typography.Text></span> },
              { title: '位置', dataIndex: 'areaPath', width: 170 },
              { title: '在线', key: 'online', width: 80, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
              { title: '生效的周程序', key: 'program', width: 260, render: (_, d) => <AppliedProgram device={d} /> },
              ...fields.map((f) => ({
                title: f.label, key: f.code, width: 100,
                render: (_: unknown, d: DeviceRow) => <span data-testid={`${f.code}-${d.deviceCode}`}>{fieldDisplay(def, f.code, d.fields[f.code])}</span>,
              })),
              { title: '最后上报', dataIndex: 'lastReportAt', width: 160, render: (v: number | null) => (v ? formatDateTime(v, 'MM-DD HH:mm:ss') : '从未上报') },
            ]}
            scrollX={1500}
          />
        </>
      )}
    </PageContainer>
  );
}

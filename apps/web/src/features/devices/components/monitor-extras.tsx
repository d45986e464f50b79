import { useState } from 'react';
import { Badge, Button, Card, Space, Statistic, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { OfflineMessageRow } from '@kelvin/contracts/device';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys } from '../api';

type Query = Record<string, string | number | undefined>;

/** 2 天 3 小时 / 5 小时 12 分 / 8 分 */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return `${d} 天 ${h} 小时`;
  if (h > 0) return `${h} 小时 ${m} 分`;
  return `${m} 分`;
}

/**
 * The monitor's statistic strip (spec §7.5) over the devices the table shows: total, online, offline, powered on,
 * active alarms and the mean room temperature of the online devices reporting one.
 */
export function MonitorStatistic({ query, hasPower, hasRoomTemp }: { query: Query; hasPower: boolean; hasRoomTemp: boolean }) {
  const stat = useQuery({ queryKey: deviceKeys.monitorStatistic(query), queryFn: () => deviceApi.monitorStatistic(query), refetchInterval: 30_000 });
  const s = stat.data;
  const v = (n: number | null | undefined) => (s ? n ?? '—' : '…');
  return (
    <Card size="small" variant="borderless" data-testid="monitor-statistic">
      <Space size={40} wrap>
        <Statistic title="设备总数" value={v(s?.total)} suffix="台" />
        <Statistic title="在线" value={v(s?.online)} suffix="台" styles={{ content: { color: '#52c41a' } }} />
        <Statistic title="离线" value={v(s?.offline)} suffix="台" styles={{ content: { color: '#8c8c8c' } }} />
        {hasPower && <Statistic title="开机（在线）" value={v(s?.poweredOn)} suffix="台" />}
        <Statistic title="告警" value={v(s?.alarms)} suffix="条" styles={{ content: { color: s?.alarms ? '#ff4d4f' : undefined } }} />
        {hasRoomTemp && (
          <Tooltip title={s ? (s.tempDevices ? `${s.tempDevices} 台在线设备的室内温度平均值` : '没有在线设备上报室内温度') : undefined}>
            <div data-testid="avg-room-temp">
              <Statistic title="平均室温" value={s ? (s.avgRoomTemp === null ? '—' : s.avgRoomTemp.toFixed(1)) : '…'} suffix={s?.avgRoomTemp != null ? '°C' : undefined} />
            </div>
          </Tooltip>
        )}
      </Space>
    </Card>
  );
}

const DAY_OPTIONS = [1, 3, 7, 30].map((d) => ({ label: `近 ${d} 天`, value: d }));

/** Offline messages: a button with the count of the last 7 days, opening the list (device, location, last report, how long). */
export function OfflineMessages({ query }: { query: Query }) {
  const [open, setOpen] = useState(false);
  const count = useQuery({
    queryKey: [...deviceKeys.offlineMessages, 'count', query],
    queryFn: () => deviceApi.offlineMessages({ ...query, pageNo: 1, pageSize: 1 }),
    refetchInterval: 60_000,
  });
  return (
    <>
      <Badge count={count.data?.total ?? 0} size="small" offset={[-4, 4]}>
        <Button onClick={() => setOpen(true)} data-testid="offline-messages-button">离线消息</Button>
      </Badge>
      <AppDrawer title="离线消息" open={open} onClose={() => setOpen(false)} size={900} destroyOnHidden>
        <DataTable<OfflineMessageRow>
          queryKey={deviceKeys.offlineMessages}
          fetchPage={deviceApi.offlineMessages}
          params={query}
          rowKey="deviceId"
          filters={[{ name: 'days', label: '时间', kind: 'select', options: DAY_OPTIONS, placeholder: '近 7 天', width: 120 }]}
          columns={[
            { title: '设备', key: 'device', width: 200, render: (_: unknown, r: OfflineMessageRow) => <div>{r.deviceName}<div style={{ color: '#999', fontSize: 12 }}>{r.deviceCode}</div></div> },
            { title: '位置', dataIndex: 'areaPath', width: 180, render: (v: string) => v || '—' },
            { title: '最后上报', dataIndex: 'lastReportAt', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
            { title: '离线时间', dataIndex: 'offlineSince', width: 170, render: (v: number) => formatDateTime(v) },
            { title: '已离线', dataIndex: 'offlineMs', width: 120, render: (v: number) => <span data-testid="offline-duration">{durationText(v)}</span> },
          ]}
        />
      </AppDrawer>
    </>
  );
}

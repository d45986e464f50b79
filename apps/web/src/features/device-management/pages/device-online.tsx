import { lazy, Suspense, useState } from 'react';
import { Card, Checkbox, DatePicker, Empty, Segmented, Select, Space, Spin, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { ONLINE_HISTORY_MAX_DAYS, type OnlineNowRow } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { dmApi, dmKeys } from '../api';

const OnlineByTypeChart = lazy(() => import('../components/online-charts').then((m) => ({ default: m.OnlineByTypeChart })));
const OnlineHistoryChart = lazy(() => import('../components/online-charts').then((m) => ({ default: m.OnlineHistoryChart })));

const HOUR = 3_600_000;
const RANGES = { day: { label: '近 24 小时', hours: 24 }, week: { label: '近 7 天', hours: 24 * 7 }, month: { label: '近 30 天', hours: 24 * 30 } } as const;
type RangeKey = keyof typeof RANGES | 'custom';
const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 1000) / 10}%` : '—');

/** deviceOnline_n (设备在线统计): online devices of the project now, per type, and hour by hour over a chosen range. */
export default function DeviceOnline() {
  const projectId = useProjectId();
  const [range, setRange] = useState<RangeKey>('day');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [deviceType, setDeviceType] = useState<string | undefined>();
  const [byType, setByType] = useState(false);
  // the range end is fixed when the range is chosen, so the query key stays put between renders
  const [anchor, setAnchor] = useState(() => Math.ceil(Date.now() / HOUR) * HOUR);
  const from = range === 'custom' ? custom?.[0].startOf('day').valueOf() : anchor - RANGES[range].hours * HOUR;
  const to = range === 'custom' ? custom?.[1].endOf('day').valueOf() : anchor;
  const enabled = projectId !== null;
  const now = useQuery({ queryKey: dmKeys.online(projectId), queryFn: () => dmApi.onlineNow(projectId!), enabled, refetchInterval: 60_000 });
  const history = useQuery({
    queryKey: dmKeys.onlineHistory(projectId, from, to, deviceType),
    queryFn: () => dmApi.onlineHistory(projectId!, { from: from!, to: to!, deviceType }),
    enabled: enabled && from !== undefined && to !== undefined,
  });

  if (!enabled) return <NoProject title="设备在线统计" />;
  const rows = (now.data ?? []).filter((r) => r.total > 0);
  const total = rows.reduce((n, r) => n + r.total, 0);
  const online = rows.reduce((n, r) => n + r.online, 0);
  const peak = history.data?.points.reduce((m, p) => Math.max(m, p.online), 0) ?? 0;

  return (
    <PageContainer title="设备在线统计" extra={<Typography.Text type="secondary">在线：最近一次上报在该类型的心跳周期内</Typography.Text>}>
      <Card size="small" title={<span>当前在线 <b data-testid="online-total">{online}</b> / {total} 台（在线率 {pct(online, total)}）</span>}>
        <Spin spinning={now.isLoading}>
          {!rows.length ? <Empty description={now.isLoading ? '加载中' : '项目中还没有设备'} /> : (
            <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
              <div style={{ flex: '1 1 480px', minWidth: 0 }}>
                <Suspense fallback={<Spin />}><OnlineByTypeChart rows={rows} /></Suspense>
              </div>
              <Table<OnlineNowRow>
                style={{ flex: '1 1 380px' }}
                size="small"
                rowKey="code"
                dataSource={rows}
                pagination={false}
                columns={[
                  { title: '设备类型', dataIndex: 'name' },
                  { title: '总数', dataIndex: 'total', width: 70 },
                  { title: '在线', dataIndex: 'online', width: 70, render: (v: number) => <span style={{ color: '#389e0d' }}>{v}</span> },
                  { title: '离线', dataIndex: 'offline', width: 70, render: (v: number) => <span style={{ color: v ? '#cf1322' : undefined }}>{v}</span> },
                  { title: '在线率', key: 'rate', width: 80, render: (_, r) => pct(r.online, r.total) },
                ]}
              />
            </div>
          )}
        </Spin>
      </Card>

      <Card size="small" title="在线设备数（按小时：该小时内有上报的设备）" extra={(
        <Space wrap>
          <Segmented<RangeKey> value={range} onChange={(v) => { setRange(v); setAnchor(Math.ceil(Date.now() / HOUR) * HOUR); }}
            options={[...Object.entries(RANGES).map(([k, r]) => ({ value: k as RangeKey, label: r.label })), { value: 'custom', label: '自定义' }]} />
          {range === 'custom' && (
            <DatePicker.RangePicker value={custom} onChange={(v) => setCustom(v as [Dayjs, Dayjs] | null)}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day')) || (custom?.[0] ? Math.abs(d.diff(custom[0], 'day')) >= ONLINE_HISTORY_MAX_DAYS : false)} />
          )}
          <Select allowClear placeholder="全部类型" style={{ width: 180 }} value={deviceType} onChange={setDeviceType} options={rows.map((r) => ({ value: r.code, label: r.name }))} />
          <Checkbox checked={byType} onChange={(e) => setByType(e.target.checked)}>按类型分线</Checkbox>
        </Space>
      )}>
        <Spin spinning={history.isFetching}>
          {range === 'custom' && !custom ? <Empty description={`请选择日期范围（最长 ${ONLINE_HISTORY_MAX_DAYS} 天）`} /> : !history.data ? <div style={{ height: 340 }} /> : (
            <>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                峰值 {peak} 台 · {history.data.points.length} 个小时
                {history.data.points.every((p) => p.online === 0) && '（这段时间没有任何设备上报）'}
              </Typography.Paragraph>
              <Suspense fallback={<Spin />}><OnlineHistoryChart data={history.data} byType={byType} /></Suspense>
            </>
          )}
        </Spin>
      </Card>
    </PageContainer>
  );
}

import { Badge, Card, Empty, Progress, Space, Spin, Statistic, Table, Tabs, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { fieldDisplay, type DeviceRow } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys } from '../../devices';

const VALVES = { category: 'valve' } as const;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const avg = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? Math.round((v.reduce((a, b) => a + b, 0) / v.length) * 10) / 10 : null;
};
const show = (d: DeviceRow, code: string) => (d.fields[code] === undefined ? '—' : fieldDisplay(d.deviceType, code, d.fields[code]));

/** One building's valves: opening (set / actual), supply and return temperatures, flow; a row opens the type's page. */
function ValveTable({ valves }: { valves: DeviceRow[] }) {
  const navigate = useNavigate();
  return (
    <Table<DeviceRow>
      size="small"
      rowKey="id"
      dataSource={valves}
      pagination={valves.length > 50 ? { pageSize: 50, showTotal: (n) => `共 ${n} 条` } : false}
      onRow={(d) => ({ onClick: () => navigate(`/device/${d.deviceType}`), style: { cursor: 'pointer' }, 'data-testid': 'valve-row' } as React.HTMLAttributes<HTMLElement>)}
      columns={[
        { title: '阀门', key: 'name', width: 200, render: (_, d) => <div><Typography.Link>{d.deviceName}</Typography.Link><div style={{ color: '#999', fontSize: 12 }}>{d.deviceCode}</div></div> },
        { title: '位置', dataIndex: 'areaPath', width: 160, render: (v: string) => v.split(' / ').slice(1).join(' / ') || '楼栋' },
        { title: '状态', key: 'online', width: 80, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
        {
          title: '实际开度', key: 'f81', width: 200, render: (_, d) => {
            const v = num(d.fields.f81);
            return v === null ? '—' : <Progress percent={v} size="small" strokeColor={d.online ? undefined : '#bfbfbf'} format={(p) => `${p}%`} />;
          },
        },
        { title: '开度设定', key: 'f80', width: 90, render: (_, d) => show(d, 'f80') },
        { title: '供水温度', key: 'f63', width: 100, render: (_, d) => show(d, 'f63') },
        { title: '回水温度', key: 'f64', width: 100, render: (_, d) => show(d, 'f64') },
        {
          title: '供回水温差', key: 'dt', width: 100, render: (_, d) => {
            const s = num(d.fields.f63);
            const r = num(d.fields.f64);
            return s === null || r === null ? '—' : `${(s - r).toFixed(1)} °C`;
          },
        },
        { title: '瞬时流量', key: 'f61', width: 110, render: (_, d) => show(d, 'f61') },
        { title: '最后上报', dataIndex: 'lastReportAt', width: 165, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
      ]}
    />
  );
}

/** projectView3 (平衡阀视图): the project's balance valves and hydraulic-balance devices by building. */
export default function ProjectView3() {
  const projectId = useProjectId();
  // only the valves (a project of thousands of meters would push them past the answer's 2,000 devices)
  const view = useQuery({ queryKey: deviceKeys.byArea(projectId, VALVES), queryFn: () => deviceApi.byArea(projectId!, VALVES), enabled: projectId !== null, refetchInterval: 30_000 });
  if (projectId === null) return <NoProject title="平衡阀视图" />;
  const valves = (view.data ?? []).flatMap((g) => g.devices);
  const buildings = new Map<string, DeviceRow[]>();
  for (const d of valves) {
    const b = d.areaPath.split(' / ')[0] || '项目级（未放入楼栋）';
    if (!buildings.has(b)) buildings.set(b, []);
    buildings.get(b)!.push(d);
  }
  const online = valves.filter((d) => d.online);
  return (
    <PageContainer title="平衡阀视图">
      <Spin spinning={view.isLoading}>
        <Card size="small" style={{ marginBottom: 12 }}>
          <Space size={48} wrap>
            <Statistic title="阀门" value={valves.length} suffix="台" />
            <Statistic title="在线" value={online.length} suffix={`/ ${valves.length}`} />
            <Statistic title="平均实际开度（在线）" value={avg(online.map((d) => num(d.fields.f81))) ?? '—'} suffix="%" />
            <Statistic title="平均供水温度（在线）" value={avg(online.map((d) => num(d.fields.f63))) ?? '—'} suffix="°C" />
            <Statistic title="平均回水温度（在线）" value={avg(online.map((d) => num(d.fields.f64))) ?? '—'} suffix="°C" />
          </Space>
        </Card>
        {!valves.length ? <Card><Empty description={view.isLoading ? '加载中' : '项目中没有平衡阀或水力平衡设备'} /></Card> : (
          <Card size="small">
            <Tabs items={[...buildings.entries()].map(([b, list]) => ({
              key: b,
              label: `${b}（${list.filter((d) => d.online).length}/${list.length}）`,
              children: <ValveTable valves={list} />,
            }))} />
          </Card>
        )}
      </Spin>
    </PageContainer>
  );
}

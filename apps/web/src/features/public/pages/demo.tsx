import { Alert, Button, Card, Empty, Skeleton, Statistic, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ShowroomAnswer } from '@kelvin/contracts';
import { useChart } from '../../../components/use-chart';
import { formatDateTime } from '../../../lib/time';
import { publicApi, publicKeys } from '../api';
import { PublicFrame } from '../components';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

function EnergyChart({ energy }: { energy: NonNullable<ShowroomAnswer['energy']> }) {
  const ref = useChart(() => ({
    grid: { left: 48, right: 16, top: 24, bottom: 28 },
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v} ${energy.unit}` },
    xAxis: { type: 'category', data: energy.days.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', name: energy.unit },
    series: [{ type: 'bar', name: energy.label, data: energy.days.map((d) => d.value), itemStyle: { color: '#1677ff' }, barMaxWidth: 36 }],
  }), [energy]);
  return <div ref={ref} style={{ height: 260 }} data-testid="demo-energy-chart" />;
}

/** /demo: a read-only tour of the demo tenant's showroom project, refreshed every 30 s. */
export default function DemoPage() {
  const q = useQuery({ queryKey: publicKeys.showroom, queryFn: publicApi.showroom, refetchInterval: 30_000 });
  const d = q.data;
  return (
    <PublicFrame>
      <Alert type="info" showIcon style={{ margin: '8px 0 16px' }}
        message="演示数据来自示范租户的模拟设备，只读展示；不含任何个人信息。"
        action={<Link to="/login"><Button type="primary" size="small">登录体验完整功能</Button></Link>} />
      {q.isLoading ? <Card><Skeleton active /></Card> : !d ? <Card><Empty description="演示项目暂不可用，请稍后再试" /></Card> : (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
          <Card>
            <Typography.Title level={3} style={{ marginTop: 0 }}>{d.project.name}</Typography.Title>
            {d.project.projectTypeName && <Tag color="blue">{d.project.projectTypeName}</Tag>}
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 16, marginTop: 16 }}>
              <Statistic title="设备总数" value={d.totals.devices} suffix="台" />
              <Statistic title="在线设备" value={d.totals.online} suffix="台" valueStyle={{ color: '#52c41a' }} />
              <Statistic title="在线率" value={d.totals.devices ? Math.round((d.totals.online / d.totals.devices) * 1000) / 10 : 0} suffix="%" />
              <Statistic title="设备类型" value={d.totals.types} suffix="种" />
            </div>
          </Card>
          <Card title="设备类型">
            {!d.types.length ? <Empty description="暂无设备" /> : (
              <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 12 }}>
                {d.types.map((t) => (
                  <Card key={t.code} size="small" data-testid="demo-type">
                    <div style={{ fontWeight: 600 }}>{t.name}</div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t.categoryName}</Typography.Text>
                    <div style={{ marginTop: 4 }}>在线 <b style={{ color: '#52c41a' }}>{t.online}</b> / 共 {t.total} 台</div>
                  </Card>
                ))}
              </div>
            )}
          </Card>
          <Card title="设备实时状态">
            {!d.devices.length ? <Empty description="暂无设备" /> : (
              <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 12 }}>
                {d.devices.map((x, i) => (
                  <Card key={i} size="small" title={x.name} extra={<Tag color={x.online ? 'green' : 'default'}>{x.online ? '在线' : '离线'}</Tag>} data-testid="demo-device">
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{x.typeName}</Typography.Text>
                    <div style={{ display: 'grid', gridTemplateColumns: '1fr auto', rowGap: 2, marginTop: 4 }}>
                      {x.fields.map((f) => <span key={f.label} style={{ display: 'contents' }}><Typography.Text type="secondary">{f.label}</Typography.Text><span>{f.value}</span></span>)}
                    </div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>最近上报：{x.lastReportAt ? formatDateTime(x.lastReportAt) : '从未上报'}</Typography.Text>
                  </Card>
                ))}
              </div>
            )}
          </Card>
          <Card title={d.energy ? `近 7 天${d.energy.label}（${d.energy.unit}）` : '近 7 天能耗'}>
            {d.energy ? <EnergyChart energy={d.energy} /> : <Empty description="该项目没有电能计量设备" />}
          </Card>
        </div>
      )}
    </PublicFrame>
  );
}

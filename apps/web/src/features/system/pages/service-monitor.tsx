import { useEffect, useState } from 'react';
import { Badge, Card, Col, Descriptions, Empty, Row, Spin, Statistic, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { INGEST_COUNTER_LABELS, INGEST_REJECT_REASONS, type IngestCounterName, type IngestRejectRow, type ServiceStatus } from '@kelvin/contracts/service-monitor';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { MonitorActions } from '../components/monitor-actions';
import { monitorApi, systemKeys } from '../api';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const POLL_MS = 5000;
/** readings kept for the rate chart: 5 minutes */
const KEEP = 60;
const REFUSALS: IngestCounterName[] = ['malformed', 'fields_unknown', 'fields_out_of_range', 'unknown_device', 'refused_client_id', 'refused_anonymous', 'refused_auth', 'refused_acl_publish', 'refused_acl_subscribe', 'oversize'];

interface Reading { at: number; stored: number; points: number; refused: number }
interface RatePoint { t: number; messages: number; points: number; refused: number }

function uptime(ms: number) {
  const m = Math.floor(ms / 60_000);
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  return d ? `${d} 天 ${h} 小时` : h ? `${h} 小时 ${m % 60} 分` : `${m % 60} 分钟`;
}

/** Rates between consecutive readings of the counters (per second). */
function rates(readings: Reading[]): RatePoint[] {
  const out: RatePoint[] = [];
  for (let i = 1; i < readings.length; i++) {
    const [a, b] = [readings[i - 1], readings[i]];
    const s = (b.at - a.at) / 1000;
    if (s <= 0) continue;
    out.push({ t: b.at, messages: Math.max(0, (b.stored - a.stored) / s), points: Math.max(0, (b.points - a.points) / s), refused: Math.max(0, (b.refused - a.refused) / s) });
  }
  return out;
}

function RateChart({ points }: { points: RatePoint[] }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v.toFixed(1)} /秒` },
    legend: { top: 0 },
    grid: { left: 56, right: 56, top: 36, bottom: 28 },
    xAxis: { type: 'time' },
    yAxis: [{ type: 'value', name: '条/秒', minInterval: 1 }, { type: 'value', name: '点/秒', minInterval: 1 }],
    series: [
      { name: '入库上报', type: 'line', showSymbol: false, data: points.map((p) => [p.t, p.messages]), itemStyle: { color: '#1677ff' } },
      { name: '入库数据点', type: 'line', yAxisIndex: 1, showSymbol: false, data: points.map((p) => [p.t, p.points]), itemStyle: { color: '#52c41a' } },
      { name: '拒绝/格式错误', type: 'line', showSymbol: false, data: points.map((p) => [p.t, p.refused]), itemStyle: { color: '#ff4d4f' } },
    ],
  }), [points]);
  return <div ref={ref} style={{ height: 260, width: '100%' }} data-testid="ingest-rate-chart" data-points={points.length} />;
}

const MQTT_MODE = { embedded: '内置', external: '外部', off: '未启用' } as const;

/**
 * serviceMonitorManager (服务运行监控, platform only): this process, its database and MQTT broker, devices online and
 * connected, the ingest rate (sampled every 5 s from the counters of every process), the counters themselves and the
 * refused messages and connections, so an operator can see why a device's data does not arrive.
 */
export default function ServiceMonitor() {
  const status = useQuery({ queryKey: systemKeys.monitorStatus, queryFn: monitorApi.status, refetchInterval: POLL_MS });
  const [readings, setReadings] = useState<Reading[]>([]);
  const s: ServiceStatus | undefined = status.data;
  useEffect(() => {
    if (!s) return;
    const refused = REFUSALS.reduce((n, k) => n + s.counters[k], 0);
    setReadings((old) => (old.at(-1)?.at === s.at ? old : [...old, { at: s.at, stored: s.counters.messages_stored, points: s.counters.points_stored, refused }].slice(-KEEP)));
  }, [s]);
  const points = rates(readings);

  if (!s) return <PageContainer title="服务运行监控"><Spin spinning><div style={{ height: 240 }} /></Spin></PageContainer>;
  return (
    <PageContainer title="服务运行监控" extra={<Typography.Text type="secondary">每 5 秒刷新 · 版本 {s.version} · Node {s.node}</Typography.Text>}>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={6}>
          <Card size="small"><Statistic title="数据库" value={s.database} suffix={<Badge status={s.databaseUp ? 'success' : 'error'} text={s.databaseUp ? '正常' : '异常'} />} /></Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card size="small">
            <Statistic
              title={`MQTT 服务（${MQTT_MODE[s.mqtt.mode]}${s.mqtt.port ? `，端口 ${s.mqtt.port}` : ''}）`}
              value={s.mqtt.status === 'up' ? '运行中' : s.mqtt.status === 'down' ? '已断开' : '未启用'}
              valueStyle={{ color: s.mqtt.status === 'up' ? '#52c41a' : s.mqtt.status === 'down' ? '#ff4d4f' : undefined }}
            />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card size="small" data-testid="monitor-devices">
            <Statistic title={`在线设备 / 设备总数${s.devices.connected === null ? '' : `（当前连接 ${s.devices.connected}）`}`} value={s.devices.online} suffix={`/ ${s.devices.total}`} />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card size="small"><Statistic title={`运行时长（${formatDateTime(s.startedAt)} 启动）`} value={uptime(s.at - s.startedAt)} /></Card>
        </Col>

        <Col xs={24}>
          <Card size="small" title="接入速率" extra={<Typography.Text type="secondary">最近 5 分钟，计数差值 ÷ 间隔</Typography.Text>}>
            {points.length ? <RateChart points={points} /> : <Empty style={{ height: 236, paddingTop: 60 }} description="正在采样，10 秒后显示" />}
          </Card>
        </Col>
        <Col xs={24}>
          <Card size="small" title="接入计数（全部服务进程，累计）">
            <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered data-testid="ingest-counters"
              items={(Object.keys(INGEST_COUNTER_LABELS) as IngestCounterName[]).map((k) => ({
                key: k, label: INGEST_COUNTER_LABELS[k], children: <span data-counter={k}>{s.counters[k].toLocaleString('zh-CN')}</span>,
              }))}
            />
          </Card>
        </Col>
      </Row>

      <div style={{ marginTop: 16 }}>
        <Can code="serviceMonitorManager:control"><MonitorActions /></Can>
      </div>

      <DataTable<IngestRejectRow>
        title="被拒绝的上报与连接（每台设备每种原因每分钟记一条）"
        queryKey={systemKeys.monitorRejects}
        fetchPage={monitorApi.rejects}
        rowKey="id"
        filters={[
          { name: 'reason', label: '原因', kind: 'select', options: Object.entries(INGEST_REJECT_REASONS).map(([value, label]) => ({ value, label })) },
          { name: 'keyword', label: '设备编号', placeholder: '设备编号' },
        ]}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '租户', dataIndex: 'tenantCode', width: 110, render: (v: string | null) => v ?? '—' },
          { title: '设备编号', dataIndex: 'deviceCode', width: 200, render: (v: string | null) => v ?? '—' },
          { title: '原因', dataIndex: 'reasonLabel', width: 130, render: (v: string) => <Tag color="red">{v}</Tag> },
          { title: '主题', dataIndex: 'topic', width: 260, ellipsis: true, render: (v: string) => v || '—' },
          { title: '说明', dataIndex: 'detail', ellipsis: true },
        ]}
      />
    </PageContainer>
  );
}

import { Card, Col, Empty, List, Row, Spin, Statistic, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import * as echarts from 'echarts/core';
import { PieChart } from 'echarts/charts';
import { LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { ALARM_SEVERITIES, type AlarmSeverity, type MonitorOverview } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { formatDateTime } from '../../../lib/time';
import { monitoringApi, monitoringKeys, useLiveAlarms } from '../api';
import { SEVERITY_HEX, SeverityTag } from '../components/tags';
import { FaultDeviceTable } from './fault-devices';

echarts.use([PieChart, TitleComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

const SEVERITIES = Object.keys(ALARM_SEVERITIES) as AlarmSeverity[];

/** Active alarms by severity, as a ring (an empty grey ring when there are none). */
function AlarmsBySeverityChart({ counts }: { counts: Record<AlarmSeverity, number> }) {
  const total = SEVERITIES.reduce((s, k) => s + counts[k], 0);
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'item', formatter: '{b}：{c} 条（{d}%）' },
    legend: { bottom: 0 },
    title: { text: String(total), subtext: '告警中', left: 'center', top: '36%', textStyle: { fontSize: 24 } },
    series: [{
      type: 'pie', radius: ['48%', '70%'], center: ['50%', '45%'], label: { show: false },
      data: total
        ? SEVERITIES.map((s) => ({ name: ALARM_SEVERITIES[s], value: counts[s], itemStyle: { color: SEVERITY_HEX[s] } }))
        : [{ name: '无告警', value: 1, itemStyle: { color: '#e8e8e8' }, tooltip: { show: false } }],
    }],
  }), [counts, total]);
  return <div ref={ref} style={{ height: 260, width: '100%' }} data-testid="alarms-by-severity-chart" data-total={total} />;
}

function Figures({ o }: { o: MonitorOverview }) {
  const items: [string, number, string?][] = [
    ['设备总数', o.devices], ['在线', o.online, '#52c41a'], ['离线', o.offline, o.offline ? '#8c8c8c' : undefined],
    ['未读告警', o.unreadAlarms, o.unreadAlarms ? '#f5222d' : undefined], ['未处理异常数据', o.openExceptions, o.openExceptions ? '#fa8c16' : undefined],
    ['故障设备', o.faultDevices, o.faultDevices ? '#f5222d' : undefined],
  ];
  return (
    <div data-testid="monitor-figures"><Row gutter={[12, 12]}>
      {items.map(([title, value, color]) => (
        <Col key={title} xs={12} sm={8} lg={4}>
          <Card size="small"><Statistic title={title} value={value} valueStyle={color ? { color } : undefined} /></Card>
        </Col>
      ))}
    </Row></div>
  );
}

/** monitor (运行监控): a project's running overview — devices online, alarms by severity, the latest alarms (live), devices in fault. */
export default function RunMonitorPage() {
  const projectId = useProjectId();
  useLiveAlarms(projectId);
  const overview = useQuery({
    queryKey: monitoringKeys.overview(projectId),
    queryFn: () => monitoringApi.overview(projectId!),
    enabled: projectId !== null,
    refetchInterval: 30_000,
  });
  const latest = useQuery({
    queryKey: [...monitoringKeys.messages(projectId), 'latest'],
    queryFn: () => monitoringApi.messages({ projectId: projectId!, pageNo: 1, pageSize: 8 }),
    enabled: projectId !== null,
  });
  if (projectId === null) return <NoProject title="运行监控" />;
  return (
    <PageContainer title="运行监控">
      <Spin spinning={overview.isLoading}>
        {overview.data && <Figures o={overview.data} />}
        <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
          <Col xs={24} lg={9}>
            <Card size="small" title="告警中（按级别）">{overview.data ? <AlarmsBySeverityChart counts={overview.data.activeAlarms} /> : <Empty />}</Card>
          </Col>
          <Col xs={24} lg={15}>
            <Card size="small" title="最新告警（实时）" extra={<Link to="/businesscenter/monitorrules">全部告警</Link>}>
              <div data-testid="latest-alarms"><List
                size="small"
                loading={latest.isLoading}
                dataSource={latest.data?.rows ?? []}
                locale={{ emptyText: '暂无告警' }}
                style={{ height: 260, overflow: 'auto' }}
                renderItem={(m) => (
                  <List.Item>
                    <span style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', width: '100%' }}>
                      <SeverityTag severity={m.severity} label={m.severityLabel} />
                      <b>{m.deviceName}</b>
                      <span>{m.ruleName}（{m.value}）</span>
                      <Typography.Text type={m.status === 'active' ? 'danger' : 'success'}>{m.statusLabel}</Typography.Text>
                      <Typography.Text type="secondary" style={{ marginLeft: 'auto' }}>{formatDateTime(m.createdAt, 'MM-DD HH:mm:ss')}</Typography.Text>
                    </span>
                  </List.Item>
                )}
              /></div>
            </Card>
          </Col>
        </Row>
      </Spin>
      <div style={{ marginTop: 12 }}>
        <FaultDeviceTable projectId={projectId} defaultPageSize={10} />
      </div>
    </PageContainer>
  );
}

import { Badge, Card, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { GONE_AFTER_BEATS, HEARTBEAT_MS, INSTANCE_ROLES, INSTANCE_STATUS, type InstanceDto, type InstanceStatus } from '@kelvin/contracts/ops';
import { PageContainer } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { opsApi, systemKeys } from '../api';

const STATUS_BADGE: Record<InstanceStatus, 'success' | 'error' | 'default'> = { up: 'success', gone: 'error', stopped: 'default' };
const ROLE_COLOR = { api: 'blue', ingest: 'green', scheduler: 'purple' } as const;

function ago(ms: number) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} 秒前` : s < 3600 ? `${Math.floor(s / 60)} 分钟前` : s < 86400 ? `${Math.floor(s / 3600)} 小时前` : `${Math.floor(s / 86400)} 天前`;
}

/**
 * serviceEurekaManager (服务注册中心, platform only): every server process of this installation — one with SQLite,
 * several sharing PostgreSQL — from its heartbeat row: roles, load, memory, connected devices, event-loop delay and
 * requests per minute. A process silent for three heartbeats is 已离线; one closed gracefully is 已停止.
 */
export default function ServiceEureka() {
  const q = useQuery({ queryKey: systemKeys.instances, queryFn: opsApi.instances, refetchInterval: HEARTBEAT_MS });
  const rows = q.data ?? [];
  const now = q.dataUpdatedAt || Date.now();
  const counts = (s: InstanceStatus) => rows.filter((r) => r.status === s).length;
  return (
    <PageContainer
      title="服务注册中心"
      extra={<Typography.Text type="secondary">每 {HEARTBEAT_MS / 1000} 秒心跳一次，{(GONE_AFTER_BEATS * HEARTBEAT_MS) / 1000} 秒无心跳视为已离线；离线 7 天后移除</Typography.Text>}
    >
      <Card size="small" style={{ marginBottom: 16 }}>
        <Space size="large" data-testid="instance-summary">
          <Badge status="success" text={`运行中 ${counts('up')}`} />
          <Badge status="error" text={`已离线 ${counts('gone')}`} />
          <Badge status="default" text={`已停止 ${counts('stopped')}`} />
        </Space>
      </Card>
      <Spin spinning={q.isLoading}>
        <Table<InstanceDto>
          size="small"
          rowKey="id"
          dataSource={rows}
          scroll={{ x: 1400 }}
          pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 条` }}
          locale={{ emptyText: <Empty description={q.isLoading ? '加载中' : '暂无服务进程'} /> }}
          columns={[
            {
              title: '状态', dataIndex: 'status', width: 100, fixed: 'left',
              render: (s: InstanceStatus) => <Badge status={STATUS_BADGE[s]} text={INSTANCE_STATUS[s]} />,
            },
            {
              title: '实例', dataIndex: 'id', width: 230,
              render: (v: string, r) => <Space size={4}><Typography.Text style={{ fontFamily: 'monospace', fontSize: 12 }}>{v}</Typography.Text>{r.self && <Tag color="gold">当前</Tag>}</Space>,
            },
            { title: '主机', dataIndex: 'host', width: 140, ellipsis: true },
            { title: '进程号', dataIndex: 'pid', width: 80 },
            { title: '版本', dataIndex: 'version', width: 90, render: (v: string, r) => <span title={`Node ${r.node}`}>{v}</span> },
            { title: '角色', dataIndex: 'roles', width: 200, render: (roles: InstanceDto['roles']) => roles.map((x) => <Tag key={x} color={ROLE_COLOR[x]}>{INSTANCE_ROLES[x]}</Tag>) },
            { title: '启动时间', dataIndex: 'startedAt', width: 170, render: (v: number) => formatDateTime(v) },
            { title: '最近心跳', dataIndex: 'heartbeatAt', width: 110, render: (v: number, r) => (r.stoppedAt ? `停止于 ${formatDateTime(r.stoppedAt)}` : <span title={formatDateTime(v)}>{ago(now - v)}</span>) },
            { title: '负载（1 分钟）', dataIndex: 'load1', width: 110 },
            { title: '内存 RSS / 堆', key: 'mem', width: 130, render: (_: unknown, r) => `${r.rssMb} / ${r.heapUsedMb} MB` },
            { title: '连接设备', dataIndex: 'devicesConnected', width: 90, render: (v: number | null) => v ?? '—' },
            { title: '事件循环延迟 p99', dataIndex: 'loopP99Ms', width: 140, render: (v: number | null) => (v === null ? '—' : `${v} ms`) },
            { title: '请求数/分钟', dataIndex: 'requestsPerMin', width: 110 },
          ]}
        />
      </Spin>
    </PageContainer>
  );
}

import { useEffect } from 'react';
import { Button, Card, Popconfirm, Progress, Space, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FactoryDeviceRow, FactoryRunStatus, FactoryRunView, FactoryStepStatus, FactoryStepView } from '@kelvin/contracts';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { dmApi, dmKeys } from '../api';

export const RUN_COLORS: Record<FactoryRunStatus, string> = { running: 'processing', passed: 'success', failed: 'error', aborted: 'warning' };
const STEP_COLORS: Record<FactoryStepStatus, string> = { pending: 'default', running: 'processing', passed: 'success', failed: 'error', skipped: 'default' };

/** A device's latest run in a list cell. */
export function LastRunCell({ d }: { d: FactoryDeviceRow }) {
  if (!d.lastRun) return <Typography.Text type="secondary">未测试</Typography.Text>;
  return (
    <Space size={4}>
      <Tag color={RUN_COLORS[d.lastRun.status]}>{d.lastRun.statusLabel}</Tag>
      <span>{d.lastRun.passed}/{d.lastRun.stepCount}</span>
      <Typography.Text type="secondary">{d.lastRun.benchTitle} · {formatDateTime(d.lastRun.startedAt, 'MM-DD HH:mm')}</Typography.Text>
    </Space>
  );
}

/** The steps of a run with their result and the device's answer. */
export function StepTable({ steps }: { steps: FactoryStepView[] }) {
  return (
    <Table<FactoryStepView>
      size="small"
      rowKey="seq"
      dataSource={steps}
      pagination={false}
      columns={[
        { title: '#', dataIndex: 'seq', width: 44, render: (v: number) => v + 1 },
        { title: '步骤', dataIndex: 'label' },
        { title: '结果', dataIndex: 'status', width: 90, render: (v: FactoryStepStatus, s) => <Tag color={STEP_COLORS[v]} data-testid="step-status">{s.statusLabel}</Tag> },
        { title: '说明', dataIndex: 'message', render: (v: string | null) => v ?? '' },
        { title: '用时', key: 'took', width: 80, render: (_, s) => (s.startedAt && s.finishedAt ? `${((s.finishedAt - s.startedAt) / 1000).toFixed(1)} 秒` : '') },
      ]}
    />
  );
}

/** One run as it happens: polled every second while running; the operator may stop it. */
export function TestRunCard({ runId, onClose }: { runId: number; onClose?: () => void }) {
  const qc = useQueryClient();
  const run = useQuery({
    queryKey: dmKeys.testRun(runId),
    queryFn: () => dmApi.testRun(runId),
    refetchInterval: (q) => (q.state.data?.status === 'running' || !q.state.data ? 1000 : false),
  });
  const stop = useMutation({
    mutationFn: () => dmApi.stopTest(runId),
    onSuccess: (r) => qc.setQueryData(dmKeys.testRun(runId), r),
  });
  const r: FactoryRunView | undefined = run.data;
  const finished = r !== undefined && r.status !== 'running';
  useEffect(() => {
    // the bench's device list shows each device's latest result
    if (finished) void qc.invalidateQueries({ queryKey: dmKeys.bench });
  }, [finished, qc]);
  if (!r) return <Card size="small" loading />;
  const done = r.passed + r.failed;
  // a finished run has a result for every step (not executed ones included)
  const percent = r.status === 'running' ? Math.round((done / Math.max(1, r.stepCount)) * 100) : 100;
  return (
    <Card size="small" data-testid="test-run" data-status={r.status}
      title={<Space><span>{r.deviceName}</span><Typography.Text type="secondary">{r.deviceCode}</Typography.Text><Tag color={RUN_COLORS[r.status]}>{r.statusLabel}</Tag></Space>}
      extra={(
        <Space>
          {r.status === 'running' && (
            <Can code={`${r.bench}:control`}>
              <Popconfirm title="确定停止这次测试？未执行的步骤记为未执行" onConfirm={() => stop.mutate()}><Button size="small" danger>停止</Button></Popconfirm>
            </Can>
          )}
          {onClose && r.status !== 'running' && <Button size="small" onClick={onClose}>关闭</Button>}
        </Space>
      )}>
      <Space style={{ width: '100%', marginBottom: 8 }} size="large" wrap>
        <Progress percent={percent} success={{ percent: Math.round((r.passed / Math.max(1, r.stepCount)) * 100) }}
          status={r.failed || r.status === 'aborted' ? 'exception' : r.status === 'running' ? 'active' : 'normal'} style={{ width: 260 }} format={() => `${done}/${r.stepCount}`} />
        <span>通过 {r.passed} · 失败 {r.failed}</span>
        <Typography.Text type="secondary">{r.benchTitle} · {r.username ?? '—'} · {formatDateTime(r.startedAt)} · 单步时限 {r.stepTimeoutSeconds} 秒</Typography.Text>
      </Space>
      <StepTable steps={r.steps ?? []} />
    </Card>
  );
}

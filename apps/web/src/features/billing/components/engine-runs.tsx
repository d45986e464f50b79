import { useState } from 'react';
import { Alert, App, Badge, Button, Descriptions, Empty, Popconfirm, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billingSchemeName, GAP_KINDS, RUN_STATES, type BillingRunRow, type RunGap } from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { accountKeys, formatFen } from '../../accounts';
import { billingKeys, engineApi } from '../api';
import { LinesTable, periodText, readingFieldLabel } from './engine-lines';

/** who started a run: a person (立即计费), the schedule, or 出账 closing a period */
const TRIGGERS: Record<string, string> = { manual: '手动', schedule: '定时', bill: '出账' };
export const triggerText = (t: string) => TRIGGERS[t] ?? t;

/** The readings a run could not bill from (missing, interrupted, a meter reset or replaced, an account without devices). */
export function GapsTable({ gaps }: { gaps: RunGap[] }) {
  if (!gaps.length) return <Alert type="success" showIcon message="本批次读数完整：没有缺数、中断、换表或无设备的账户" />;
  return (
    <Table<RunGap>
      size="small"
      rowKey={(g) => `${g.kind}-${g.accountId ?? ''}-${g.deviceId ?? ''}-${g.fieldCode ?? ''}-${g.from}`}
      dataSource={gaps}
      pagination={gaps.length > 10 ? { pageSize: 10, showTotal: (n) => `共 ${n} 条`, size: 'small' } : false}
      scroll={{ x: 900 }}
      columns={[
        { title: '情况', dataIndex: 'kind', width: 130, render: (k: RunGap['kind']) => <Tag color={k === 'reset' ? 'orange' : k === 'noDevice' ? 'default' : 'red'}>{GAP_KINDS[k] ?? k}</Tag> },
        { title: '设备', dataIndex: 'deviceName', width: 150, render: (v: string | null) => v ?? '—' },
        { title: '读数项', dataIndex: 'fieldCode', width: 120, render: (v: string | null) => (v ? readingFieldLabel(v) : '—') },
        { title: '时间段', key: 'range', width: 250, render: (_, g) => periodText(g.from, g.to) },
        { title: '说明', dataIndex: 'note', width: 260 },
      ]}
    />
  );
}

/** A run: its figures, what it could not bill (gaps), and its lines with their readings. */
export function RunDrawer({ runId, onClose }: { runId: number | null; onClose: () => void }) {
  const q = useQuery({ queryKey: billingKeys.run(runId), queryFn: () => engineApi.runDetail(runId!), enabled: runId !== null });
  const run = q.data;
  return (
    <AppDrawer open={runId !== null} size={1200} title={runId !== null ? `计费批次 #${runId}` : ''} onClose={onClose} destroyOnHidden>
      {q.isLoading && <Skeleton active />}
      {run && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={3} items={[
            { label: '项目', children: run.projectName },
            { label: '计费方案', children: billingSchemeName(run.scheme) },
            { label: '状态', children: <RunState run={run} /> },
            { label: '计费周期', children: periodText(run.periodFrom, run.periodUntil), span: 2 },
            { label: '触发', children: triggerText(run.trigger) },
            { label: '账户数', children: run.accounts },
            { label: '明细数', children: run.lines },
            { label: '金额', children: <span data-testid="run-total">{formatFen(run.totalFen)} 元</span> },
            { label: '开始', children: formatDateTime(run.startedAt) },
            { label: '完成', children: run.finishedAt ? formatDateTime(run.finishedAt) : '—', span: 2 },
          ]} />
          <div>
            <Typography.Title level={5}>缺数说明（{run.gaps.length}）</Typography.Title>
            <GapsTable gaps={run.gaps} />
          </div>
          <LinesTable
            title="计费明细"
            queryKey={[...billingKeys.lines(run.projectId), 'run', run.runId]}
            params={{ projectId: run.projectId, runId: run.runId }}
            fetchPage={engineApi.lines}
            columns={['account', 'method', 'readings', 'quantity', 'unitPrice', 'amount', 'posted']}
            exportCode="equipmentBilling_n:export"
            empty={<Typography.Text type="secondary">本批次没有产生计费明细</Typography.Text>}
          />
        </Space>
      )}
    </AppDrawer>
  );
}

function RunState({ run }: { run: BillingRunRow }) {
  return run.state === 'done' ? <Badge status="success" text={RUN_STATES.done} /> : <Badge status="processing" text={RUN_STATES[run.state] ?? run.state} />;
}

/**
 * 计费批次: the charge runs of the project (scheduled and manual) with 立即计费 — bills every account from the last run
 * up to now from the devices' real readings (prepaid: charged to the balance; postpaid: lines for the next bill).
 */
export function RunsTab({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  const run = useMutation({
    mutationFn: () => engineApi.run({ projectId }),
    onSuccess: (r) => {
      if (r.runId === null) message.info('没有新的用量需要计费（距上次计费没有新的读数）');
      else message.success(`计费完成：${r.accounts} 个账户，${r.lines} 条明细，合计 ${formatFen(r.totalFen)} 元`);
      void qc.invalidateQueries({ queryKey: billingKeys.engine });
      // prepaid runs charge balances
      void qc.invalidateQueries({ queryKey: accountKeys.all });
      if (r.runId !== null) setOpen(r.runId);
    },
  });
  return (
    <>
      <DataTable<BillingRunRow>
        queryKey={billingKeys.runs(projectId)}
        fetchPage={engineApi.runs}
        params={{ projectId }}
        rowKey="runId"
        onRow={(r) => ({ onClick: () => setOpen(r.runId), style: { cursor: 'pointer' } })}
        toolbar={(
          <Can code="equipmentBilling_n:btn_add">
            <Popconfirm title="立即计费？" description="按各设备的最新读数，为本项目所有账户计费到当前时刻" okText="计费" cancelText="取消" onConfirm={() => run.mutate()}>
              <Button type="primary" icon={<ThunderboltOutlined />} loading={run.isPending}>立即计费</Button>
            </Popconfirm>
          </Can>
        )}
        columns={[
          { title: '批次', dataIndex: 'runId', width: 80, render: (v: number) => `#${v}` },
          { title: '计费周期', key: 'period', width: 260, render: (_, r) => periodText(r.periodFrom, r.periodUntil) },
          { title: '方案', dataIndex: 'scheme', width: 230, render: (v: number) => billingSchemeName(v) },
          { title: '账户数', dataIndex: 'accounts', width: 80, align: 'right' },
          { title: '明细数', dataIndex: 'lines', width: 80, align: 'right' },
          { title: '金额（元）', dataIndex: 'totalFen', width: 120, align: 'right', render: (v: number) => formatFen(v) },
          { title: '状态', key: 'state', width: 100, render: (_, r) => <RunState run={r} /> },
          { title: '缺数说明', key: 'gaps', width: 100, render: (_, r) => (r.gaps.length ? <Tag color="orange">{r.gaps.length} 条</Tag> : <Tag color="green">无</Tag>) },
          { title: '触发', dataIndex: 'trigger', width: 80, render: (v: string) => triggerText(v) },
          { title: '开始时间', dataIndex: 'startedAt', width: 160, render: (v: number) => formatDateTime(v) },
          { title: '操作', key: 'op', width: 80, fixed: 'right', render: (_, r) => <Button type="link" size="small" onClick={(e) => { e.stopPropagation(); setOpen(r.runId); }}>详情</Button> },
        ]}
      />
      <RunDrawer runId={open} onClose={() => setOpen(null)} />
    </>
  );
}

export const NoRuns = () => <Empty description="本项目还没有计费批次：在「设备计费 › 计费批次」中点「立即计费」" />;

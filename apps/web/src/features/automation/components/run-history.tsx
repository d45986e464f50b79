import { Badge, Button, Space, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RunStatus, TaskRunResult, TaskRunRow } from '@kelvin/contracts/automation';
import { fieldDisplay, fieldOf } from '@kelvin/contracts/device-registry';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { toastSuccess } from '../../../lib/feedback';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { automationApi, automationKeys } from '../api';

const RUN_COLORS: Record<RunStatus, string> = { running: 'processing', success: 'success', partial: 'warning', failed: 'error', missed: 'default' };
const RESULT_COLORS: Record<TaskRunResult['status'], string> = { pending: 'blue', acked: 'green', rejected: 'red', expired: 'orange' };

export const failedOf = (run: TaskRunRow) => run.results.filter((r) => r.status === 'rejected' || r.status === 'expired');

/** Each command of a run: the device, what was written, and its outcome (acked / rejected / expired). */
function RunResults({ run, deviceType }: { run: TaskRunRow; deviceType: string | null }) {
  return (
    <Table<TaskRunResult>
      size="small"
      rowKey={(r) => `${r.deviceId}-${r.commandId ?? 'x'}-${r.fieldCode ?? ''}`}
      dataSource={run.results}
      pagination={run.results.length > 10 ? { pageSize: 10, size: 'small', showTotal: (n) => `共 ${n} 条` } : false}
      locale={{ emptyText: run.status === 'missed' ? '错过的执行，未下发命令' : '没有设备' }}
      columns={[
        { title: '设备', key: 'device', render: (_, r) => <span>{r.deviceName}<br /><Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.deviceCode}</Typography.Text></span> },
        {
          title: '命令', key: 'write', render: (_, r) => (r.fieldCode ? writeText(deviceType, r.fieldCode, r.value) : '—'),
        },
        { title: '结果', key: 'status', width: 110, render: (_, r) => <Tag color={RESULT_COLORS[r.status]}>{r.statusLabel}</Tag> },
        { title: '说明', dataIndex: 'error', render: (v: string | null) => v ?? '' },
      ]}
    />
  );
}

/** 设定温度 = 22.0 °C: the registry's label and display of a written value. */
export function writeText(deviceType: string | null, fieldCode: string, value: unknown): string {
  if (!deviceType) return `${fieldCode} = ${String(value ?? '')}`;
  return `${fieldOf(deviceType, fieldCode)?.label ?? fieldCode} = ${fieldDisplay(deviceType, fieldCode, value)}`;
}

/**
 * 执行记录 of a task or a week program: each run with when (due and started), why (按计划 / 补执行 / 手动 / 重试 …),
 * how its commands ended, the per-device outcomes when expanded, and 重试失败设备 for a run with failures.
 */
export function RunHistoryDrawer({ owner, id, title, deviceType, menuCode, onClose }: {
  owner: 'task' | 'program';
  id: number | null;
  title: string;
  deviceType: string | null;
  /** the screen whose btn_edit allows a retry */
  menuCode: string;
  onClose(): void;
}) {
  const qc = useQueryClient();
  const retry = useMutation({
    mutationFn: (runId: number) => automationApi.retryRun(owner, runId),
    onSuccess: () => {
      toastSuccess('已重新下发到失败的设备');
      if (id !== null) void qc.invalidateQueries({ queryKey: automationKeys.runs(owner, id) });
    },
  });
  return (
    <AppDrawer open={id !== null} title={`执行记录 · ${title}`} size={920} onClose={onClose} destroyOnHidden>
      {id !== null && (
        <DataTable<TaskRunRow>
          queryKey={automationKeys.runs(owner, id)}
          fetchPage={(q) => (owner === 'task' ? automationApi.taskRuns(id, q) : automationApi.programRuns(id, q))}
          rowKey="id"
          defaultPageSize={10}
          toolbar={<Button icon={<ReloadOutlined />} onClick={() => void qc.invalidateQueries({ queryKey: automationKeys.runs(owner, id) })}>刷新</Button>}
          expandable={{ expandedRowRender: (run) => <RunResults run={run} deviceType={deviceType} />, rowExpandable: () => true }}
          columns={[
            { title: '执行时间', key: 'when', width: 170, render: (_, r) => formatDateTime(r.startedAt ?? r.scheduledAt) },
            { title: '计划时间', dataIndex: 'scheduledAt', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
            { title: '触发', dataIndex: 'triggerLabel', width: 110 },
            { title: '状态', key: 'status', width: 110, render: (_, r) => <Badge status={RUN_COLORS[r.status] as 'success'} text={r.statusLabel} /> },
            { title: '设备', key: 'devices', width: 70, render: (_, r) => r.results.length },
            {
              title: '结果', key: 'counts', width: 230, render: (_, r) => (
                <Space size={4} wrap>
                  {r.counts.acked > 0 && <Tag color="green">成功 {r.counts.acked}</Tag>}
                  {r.counts.pending > 0 && <Tag color="blue">执行中 {r.counts.pending}</Tag>}
                  {r.counts.rejected > 0 && <Tag color="red">拒绝 {r.counts.rejected}</Tag>}
                  {r.counts.expired > 0 && <Tag color="orange">超时 {r.counts.expired}</Tag>}
                </Space>
              ),
            },
            {
              title: '操作', key: 'op', width: 130, fixed: 'right', render: (_, r) => (failedOf(r).length > 0 && (
                <Can code={`${menuCode}:btn_edit`}>
                  <Button type="link" size="small" loading={retry.isPending && retry.variables === r.id} onClick={() => retry.mutate(r.id)}>
                    重试失败设备（{failedOf(r).length}）
                  </Button>
                </Can>
              )),
            },
          ]}
          scrollX={900}
        />
      )}
    </AppDrawer>
  );
}

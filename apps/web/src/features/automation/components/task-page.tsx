import { useState, type ReactNode } from 'react';
import { Badge, Button, Popconfirm, Space, Switch, Typography } from 'antd';
import { PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RUN_STATUS, TASK_KINDS, TASK_KIND_MENUS, type RunStatus, type TaskKind, type TaskRow } from '@kelvin/contracts/automation';
import { DataTable, updatedColumn } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { toastSuccess } from '../../../lib/feedback';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { automationApi, automationKeys } from '../api';
import { RunHistoryDrawer, writeText } from './run-history';
import { TaskFormModal } from './task-form';

const RUN_BADGE: Record<RunStatus, 'processing' | 'success' | 'warning' | 'error' | 'default'> = {
  running: 'processing', success: 'success', partial: 'warning', failed: 'error', missed: 'default',
};

const HINTS: Record<TaskKind, string> = {
  once: '在指定时间执行一次，写入所选设备的参数。',
  periodic: '按每天、每周、每月或 Cron 规则反复执行；每次执行都有记录。',
  memory: '把周程序整体下发到在设备内存中保存程序的设备（如地暖温控器），设备按程序自行执行并回报。',
  strategy: '条件持续成立时自动执行，例如“室温低于 16 °C 持续 20 分钟 → 开机 22 °C”；冷却时间内不重复触发。',
  holiday: '在「节假日管理」中的节假日（或调休上班日）的指定时间执行。',
};

/**
 * One screen per task kind (定时 / 周期 / 记忆周期 / 策略 / 节假日): query form, 新增 / 导出, the list with 共 N 条,
 * an enable switch, 立即执行, 执行记录 (each run's devices and outcomes, 重试失败设备) and 删除 with confirmation.
 */
export function TaskPage({ kind, extraColumns, extraActions }: {
  kind: TaskKind;
  extraColumns?: { title: string; key: string; width?: number; render: (t: TaskRow) => ReactNode }[];
  extraActions?: (t: TaskRow) => ReactNode;
}) {
  const projectId = useProjectId();
  const menu = TASK_KIND_MENUS[kind];
  const qc = useQueryClient();
  const [editing, setEditing] = useState<TaskRow | 'new' | null>(null);
  const [history, setHistory] = useState<TaskRow | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: automationKeys.all });
  const toggle = useMutation({
    mutationFn: (t: TaskRow) => automationApi.enableTask(t.id, !t.enabled),
    onSuccess: (_r, t) => {
      toastSuccess(t.enabled ? '已停用' : '已启用');
      void refresh();
    },
  });
  const remove = useChange((id: number) => automationApi.removeTasks([id]), { done: '删除成功', refresh });
  const execute = useMutation({
    mutationFn: (t: TaskRow) => automationApi.executeTask(t.id),
    onSuccess: (_r, t) => {
      toastSuccess('已开始执行，结果见执行记录');
      void refresh();
      setHistory(t);
    },
  });

  if (projectId === null) return <NoProject title={TASK_KINDS[kind]} />;
  return (
    <PageContainer title={TASK_KINDS[kind]}>
      <Typography.Text type="secondary">{HINTS[kind]}</Typography.Text>
      <DataTable<TaskRow>
        queryKey={automationKeys.tasks(projectId, kind)}
        fetchPage={automationApi.tasks}
        params={{ projectId, kind }}
        rowKey="id"
        exportUrl="/api/v1/task/export"
        exportCode={`${menu}:export`}
        filters={[{ name: 'keyword', label: '任务名称', placeholder: '输入名称' }]}
        toolbar={<Can code={`${menu}:btn_add`}><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button></Can>}
        columns={[
          { title: '任务名称', dataIndex: 'name', width: 180 },
          { title: kind === 'strategy' ? '条件' : kind === 'memory' ? '下发' : '执行规则', dataIndex: 'description', width: 240 },
          {
            title: '写入', key: 'writes', width: 220, render: (_, t) => (t.writes.length
              ? t.writes.map((w) => writeText(t.deviceType, w.fieldCode, w.value)).join('，')
              : '—'),
          },
          { title: '设备数', dataIndex: 'deviceCount', width: 80 },
          ...(extraColumns ?? []).map((c) => ({ title: c.title, key: c.key, width: c.width, render: (_: unknown, t: TaskRow) => c.render(t) })),
          { title: '下次执行', dataIndex: 'nextRunAt', width: 160, render: (v: number | null) => (v ? formatDateTime(v, 'YYYY-MM-DD HH:mm') : '—') },
          {
            title: '上次执行', key: 'last', width: 190, render: (_, t) => (t.lastRunAt
              ? <span>{formatDateTime(t.lastRunAt, 'MM-DD HH:mm')} {t.lastRunStatus && <Badge status={RUN_BADGE[t.lastRunStatus]} text={RUN_STATUS[t.lastRunStatus]} />}</span>
              : '从未执行'),
          },
          {
            title: '启用', dataIndex: 'enabled', width: 80,
            render: (_, t) => (
              <Can code={`${menu}:btn_edit`} fallback={t.enabled ? '是' : '否'}>
                <Switch size="small" checked={t.enabled} loading={toggle.isPending && toggle.variables?.id === t.id} onChange={() => toggle.mutate(t)} aria-label="启用" />
              </Can>
            ),
          },
          updatedColumn(),
          {
            title: '操作', key: 'op', width: 270, fixed: 'right', render: (_, t) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setHistory(t)}>执行记录</Button>
                <Can code={`${menu}:btn_edit`}>
                  <Button type="link" size="small" onClick={() => setEditing(t)}>编辑</Button>
                  <Popconfirm title={`现在执行「${t.name}」？`} description="立即向目标设备下发命令" onConfirm={() => execute.mutate(t)}>
                    <Button type="link" size="small" icon={<PlayCircleOutlined />}>立即执行</Button>
                  </Popconfirm>
                </Can>
                {extraActions?.(t)}
                <DeleteLink code={`${menu}:btn_del`} title={`确定删除任务「${t.name}」？`} description="执行记录一并删除，已下发的命令不受影响" onConfirm={() => remove.mutate(t.id)} />
              </Space>
            ),
          },
        ]}
        scrollX={1500}
      />
      <TaskFormModal projectId={projectId} kind={kind} row={editing === 'new' ? null : editing} open={!!editing} onClose={() => setEditing(null)} />
      <RunHistoryDrawer owner="task" id={history?.id ?? null} title={history?.name ?? ''} deviceType={history?.deviceType ?? null} menuCode={menu} onClose={() => setHistory(null)} />
    </PageContainer>
  );
}

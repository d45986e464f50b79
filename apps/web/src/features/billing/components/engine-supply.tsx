import { App, Button, Tag, Tooltip, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUPPLY_ACTIONS, SUPPLY_STATUS, type SupplyActionRow, type SupplyStatus } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { useProject } from '../../../stores/project';
import { billingKeys, engineApi } from '../api';

const STATUS_COLORS: Record<SupplyStatus, string> = { pending: 'processing', acked: 'success', failed: 'warning', gaveUp: 'error', superseded: 'default', unsupported: 'default' };
/** the actions a person may send again: the loop's own retries failed or stopped */
const RETRYABLE: ReadonlySet<SupplyStatus> = new Set(['failed', 'gaveUp']);

/**
 * 供能控制: what the prepaid loop did to the supply — 断开供能 when a balance ran out, 恢复供能 after a top-up — each
 * with its command's outcome and attempts; a failed one can be sent again.
 */
export function SupplyTab({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const deviceTypes = useProject((s) => s.deviceTypes);
  const retry = useMutation({
    mutationFn: (id: number) => engineApi.retrySupply(id),
    onSuccess: (r) => {
      message.success(`已重新下发：${SUPPLY_ACTIONS[r.action]}（${r.deviceName}）`);
      void qc.invalidateQueries({ queryKey: billingKeys.supply(projectId) });
    },
  });
  return (
    <DataTable<SupplyActionRow>
      queryKey={billingKeys.supply(projectId)}
      fetchPage={engineApi.supply}
      params={{ projectId }}
      rowKey="id"
      filters={[{ name: 'status', label: '状态', kind: 'select', width: 180, options: Object.entries(SUPPLY_STATUS).map(([value, label]) => ({ value, label })) }]}
      columns={[
        { title: '时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
        { title: '动作', dataIndex: 'action', width: 100, render: (v: SupplyActionRow['action']) => <Tag color={v === 'cutoff' ? 'red' : 'green'}>{SUPPLY_ACTIONS[v] ?? v}</Tag> },
        { title: '账户', dataIndex: 'accountName', width: 130 },
        {
          title: '设备', key: 'device', width: 200, render: (_, r) => (
            <span>{r.deviceName}<br /><Typography.Text type="secondary" style={{ fontSize: 12 }}>{deviceTypes.find((t) => t.code === r.deviceType)?.name ?? r.deviceType}</Typography.Text></span>
          ),
        },
        { title: '状态', dataIndex: 'status', width: 150, render: (v: SupplyStatus) => <Tag color={STATUS_COLORS[v]}>{SUPPLY_STATUS[v] ?? v}</Tag> },
        { title: '尝试次数', dataIndex: 'attempts', width: 90, align: 'right' },
        { title: '指令', dataIndex: 'commandId', width: 90, render: (v: number | null) => (v ? `#${v}` : '—') },
        {
          title: '错误', dataIndex: 'lastError', width: 220, ellipsis: { showTitle: false },
          render: (v: string | null) => (v ? <Tooltip title={v}><Typography.Text type="danger">{v}</Typography.Text></Tooltip> : '—'),
        },
        { title: '更新时间', dataIndex: 'updatedAt', width: 160, render: (v: number) => formatDateTime(v) },
        {
          title: '操作', key: 'op', width: 80, fixed: 'right', render: (_, r) => (RETRYABLE.has(r.status) ? (
            <Can code="equipmentBilling_n:btn_edit">
              <Button type="link" size="small" loading={retry.isPending && retry.variables === r.id} onClick={() => retry.mutate(r.id)}>重试</Button>
            </Can>
          ) : null),
        },
      ]}
    />
  );
}

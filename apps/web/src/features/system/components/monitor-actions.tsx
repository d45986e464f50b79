import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Radio, Select, Space, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BROADCAST_ACTIONS, type BroadcastAction } from '@kelvin/contracts/ops';
import { useAppModal } from '../../../lib/ui';
import { monitorApi, systemKeys } from '../api';

/**
 * The service monitor's actions (spec §7.5, platform only, each audited): reload this process's IoT caches, broadcast
 * "report now" / "sync time" to the online devices of a tenant/project (or all), and ask the 4G RTU devices to report
 * at their next wake-up. Each asks for confirmation and shows what the server did.
 */
export function MonitorActions() {
  const modal = useAppModal();
  const targets = useQuery({ queryKey: systemKeys.monitorTargets, queryFn: monitorApi.targets });
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [projectId, setProjectId] = useState<number | undefined>();
  const [action, setAction] = useState<BroadcastAction>('refresh');
  const [result, setResult] = useState<{ title: string; lines: ReactNode[] } | null>(null);
  const tenant = targets.data?.find((t) => t.id === tenantId);
  const where = tenant ? `${tenant.name}${projectId ? `「${tenant.projects.find((p) => p.id === projectId)?.name ?? ''}」` : '（全部项目）'}` : '全部租户';
  const online = tenant ? tenant.online : (targets.data ?? []).reduce((n, t) => n + t.online, 0);
  const cellular = tenant ? tenant.cellular : (targets.data ?? []).reduce((n, t) => n + t.cellular, 0);
  const body = { ...(tenantId && { tenantId }), ...(projectId && { projectId }) };

  const reload = useMutation({
    mutationFn: monitorApi.reload,
    onSuccess: (r) => setResult({ title: '已重新加载物联网配置（本服务进程）', lines: r.items.map((i) => <span key={i.name}><b>{i.name}</b>：{i.detail}</span>) }),
  });
  const broadcast = useMutation({
    mutationFn: () => monitorApi.broadcast({ ...body, action }),
    onSuccess: (r) => {
      void targets.refetch();
      setResult({ title: `MQTT 广播「${BROADCAST_ACTIONS[r.action]}」已下发（${where}）`, lines: [`在线设备 ${r.online} 台，已下发 ${r.asked} 台${r.unsupported ? `，${r.unsupported} 台不支持该操作` : ''}；应答见设备操作日志`] });
    },
  });
  const rtu = useMutation({
    mutationFn: () => monitorApi.rtuRefresh(body),
    onSuccess: (r) => setResult({
      title: `4G RTU 刷新已下发（${where}）`,
      lines: [`4G 设备 ${r.devices} 台，本次请求 ${r.asked} 台（在线立即下发 ${r.sentNow} 台，其余在下次唤醒时下发）${r.alreadyWaiting ? `，${r.alreadyWaiting} 台已有待执行的刷新` : ''}`],
    }),
  });

  const confirm = (title: string, content: string, run: () => void) => modal.confirm({ title, content, okText: '确定', cancelText: '取消', onOk: run });

  return (
    <Card size="small" title="运维操作" style={{ marginBottom: 16 }} data-testid="monitor-actions">
      <Space wrap size="middle" style={{ marginBottom: 12 }}>
        <span>范围</span>
        <Select
          style={{ width: 200 }} allowClear placeholder="全部租户" loading={targets.isLoading} value={tenantId}
          options={(targets.data ?? []).map((t) => ({ value: t.id, label: `${t.name}（${t.code}）` }))}
          onChange={(v?: number) => { setTenantId(v); setProjectId(undefined); }}
          data-testid="action-tenant"
        />
        <Select
          style={{ width: 200 }} allowClear placeholder="全部项目" disabled={!tenant} value={projectId}
          options={(tenant?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
          onChange={(v?: number) => setProjectId(v)}
        />
        <Typography.Text type="secondary">在线设备 {online} 台 · 4G 设备 {cellular} 台</Typography.Text>
      </Space>
      <Space wrap size="middle">
        <Button loading={reload.isPending} onClick={() => confirm('重新加载物联网配置', '清空本服务进程的设备目录、告警规则索引、定时任务与策略任务缓存，并从数据库重新读取。确定执行？', () => reload.mutate())}>
          重新加载物联网配置
        </Button>
        <Space.Compact>
          <Radio.Group value={action} onChange={(e) => setAction(e.target.value as BroadcastAction)} optionType="button"
            options={(Object.keys(BROADCAST_ACTIONS) as BroadcastAction[]).map((k) => ({ value: k, label: BROADCAST_ACTIONS[k] }))} />
          <Button type="primary" loading={broadcast.isPending} onClick={() => confirm('MQTT 广播', `向${where}的 ${online} 台在线设备下发「${BROADCAST_ACTIONS[action]}」。确定广播？`, () => broadcast.mutate())}>
            MQTT 广播
          </Button>
        </Space.Compact>
        <Button loading={rtu.isPending} onClick={() => confirm('4G RTU 刷新', `请${where}的 ${cellular} 台 4G 设备上报数据：在线的立即下发，休眠的在下次唤醒时下发。确定刷新？`, () => rtu.mutate())}>
          4G RTU 刷新
        </Button>
      </Space>
      {result && (
        <Alert style={{ marginTop: 12 }} type="success" showIcon closable onClose={() => setResult(null)} message={result.title}
          description={<Space direction="vertical" size={2}>{result.lines}</Space>} data-testid="action-result" />
      )}
    </Card>
  );
}

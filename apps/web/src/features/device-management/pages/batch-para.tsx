import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Empty, Form, Input, Popconfirm, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import {
  BATCH_RESULT_LABELS, COMMAND_STATUS_LABELS, DEVICE_TYPE_BY_CODE, advancesCommand, fieldDisplay,
  type BatchParaAnswer, type BatchParaResult, type CommandStatus, type DeviceRow, type FieldValue, type LiveCommandEvent,
} from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { PreventClickButton } from '../../../lib/ui';
import { FieldInput, checkFieldValue } from '../../../components/field-input';
import { commandEvents, deviceApi, useDeviceTypes, useLiveDevices } from '../../devices';
import { dmApi } from '../api';
import { DevicePicker } from '../components/device-picker';

const STATUS_COLORS = { sent: 'green', queued: 'orange', failed: 'red' } as const;
const TTL_OPTIONS = [
  { value: 600, label: '10 分钟' },
  { value: 3600, label: '1 小时' },
  { value: 6 * 3600, label: '6 小时' },
  { value: 24 * 3600, label: '1 天' },
  { value: 7 * 86400, label: '7 天' },
];
const CMD_COLORS: Record<CommandStatus, string> = { pending: 'orange', sent: 'blue', acked: 'green', rejected: 'red', expired: 'default' };

type CommandState = Pick<LiveCommandEvent, 'status' | 'error'>;

/** States merged per command: whichever is further along (answers to requests and live events may cross). */
function mergeStates(into: Map<number, CommandState | null>, from: Iterable<[number, CommandState | null]>) {
  const out = new Map(into);
  for (const [id, next] of from) {
    const current = out.get(id);
    out.set(id, current && next && !advancesCommand(current.status, next.status) ? current : next ?? current ?? null);
  }
  return out;
}

/** Command states of the written devices, a few requests at a time (null: not visible to this user). */
async function commandStates(ids: number[]): Promise<Map<number, CommandState | null>> {
  const out = new Map<number, CommandState | null>();
  for (let i = 0; i < ids.length; i += 8) {
    const chunk = ids.slice(i, i + 8);
    const got = await Promise.all(chunk.map((id) => deviceApi.command(id).catch(() => null)));
    chunk.forEach((id, j) => out.set(id, got[j]));
  }
  return out;
}

/**
 * batchpara (批量参数设置): one writable field of one device type, written to many devices of the project. Each
 * device gets its own result — sent, queued until the offline device comes back, or failed with the reason — and
 * the commands' later state (executed / refused / expired) can be followed here.
 */
export default function BatchPara() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const [deviceType, setDeviceType] = useState<string | undefined>();
  const [fieldCode, setFieldCode] = useState<string | undefined>();
  const [value, setValue] = useState<FieldValue | undefined>();
  const [ttl, setTtl] = useState(600);
  const [picked, setPicked] = useState<DeviceRow[]>([]);
  const [answer, setAnswer] = useState<BatchParaAnswer | null>(null);
  const [states, setStates] = useState<Map<number, CommandState | null>>(new Map());
  const types = useDeviceTypes(projectId);

  // the devices' acknowledgements arrive on the live stream as they happen
  useLiveDevices(projectId);
  useEffect(() => {
    const ids = new Set(answer?.results.map((r) => r.commandId) ?? []);
    const onEvent = (e: Event) => {
      const { commandId, status, error } = (e as CustomEvent<LiveCommandEvent>).detail;
      if (ids.has(commandId)) setStates((m) => mergeStates(m, [[commandId, { status, error }]]));
    };
    commandEvents.addEventListener('command', onEvent);
    return () => commandEvents.removeEventListener('command', onEvent);
  }, [answer]);

  const def = deviceType ? DEVICE_TYPE_BY_CODE.get(deviceType) : undefined;
  const writable = useMemo(() => def?.fields.filter((f) => f.writable && !f.hidden) ?? [], [def]);
  const field = writable.find((f) => f.code === fieldCode);
  const limitsFrom = useMemo(() => picked.map((d) => d.fields), [picked]);
  const check = field ? checkFieldValue(def!, field, value, limitsFrom) : null;
  const typeOptions = (types.data ?? [])
    .filter((t) => t.total > 0 && DEVICE_TYPE_BY_CODE.get(t.code)?.fields.some((f) => f.writable && !f.hidden))
    .map((t) => ({ value: t.code, label: `${t.name}（${t.total} 台）` }));

  const follow = useMutation({
    mutationFn: (a: BatchParaAnswer) => commandStates(a.results.filter((r) => r.commandId !== null).map((r) => r.commandId!)),
    onSuccess: (got) => setStates((m) => mergeStates(m, got)),
  });
  const send = useMutation({
    mutationFn: () => dmApi.batchPara({ deviceIds: picked.map((d) => d.id), fieldCode: field!.code, value: (check as { value: number | string }).value, ttl }),
    onSuccess: (a) => {
      setAnswer(a);
      setStates(new Map());
      (a.failed ? message.warning : message.success)(`共 ${a.total} 台：已下发 ${a.sent}，等待上线 ${a.queued}，失败 ${a.failed}`);
      // devices acknowledge within seconds: look once by ourselves, then on request
      setTimeout(() => follow.mutate(a), 3000);
    },
  });

  if (projectId === null) return <NoProject title="批量参数设置" />;
  const chooseType = (t?: string) => {
    setDeviceType(t);
    setFieldCode(undefined);
    setValue(undefined);
    setPicked([]);
  };
  const description = field && check?.ok ? `${field.label} → ${fieldDisplay(def!, field.code, check.value)}` : '';

  return (
    <PageContainer title="批量参数设置">
      <Card size="small" title="1. 选择参数">
        <Form layout="inline" style={{ rowGap: 12 }}>
          <Form.Item label="设备类型" required>
            <Select style={{ width: 240 }} placeholder="选择设备类型" value={deviceType} onChange={chooseType} options={typeOptions} loading={types.isLoading}
              notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="项目中没有可写参数的设备" />} data-testid="batch-type" />
          </Form.Item>
          <Form.Item label="参数" required>
            <Select style={{ width: 200 }} placeholder="选择参数" value={fieldCode} disabled={!def} data-testid="batch-field"
              onChange={(c) => { setFieldCode(c); setValue(undefined); }} options={writable.map((f) => ({ value: f.code, label: f.label }))} />
          </Form.Item>
          <Form.Item label="取值" required>
            {field && def
              ? <FieldInput def={def} field={field} value={value} onChange={setValue} limitsFrom={limitsFrom} testId="batch-value" />
              : <Input disabled placeholder="先选择参数" style={{ width: 220 }} />}
          </Form.Item>
          <Form.Item label="离线等待" tooltip="设备不在线（或 4G 设备休眠）时，指令在此期限内等待设备上线后下发，过期则记为失败">
            <Select style={{ width: 120 }} value={ttl} onChange={setTtl} options={TTL_OPTIONS} />
          </Form.Item>
        </Form>
      </Card>

      <Card size="small" title="2. 选择设备">
        {!def ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="先选择设备类型" /> : (
          <DevicePicker projectId={projectId} deviceType={def.code} selected={picked} onChange={setPicked} queryKey={`batch-${def.code}`}
            extraColumns={field ? [{ title: `当前${field.label}`, key: 'cur', width: 120, render: (d) => (d.fields[field.code] === undefined ? '—' : fieldDisplay(def, field.code, d.fields[field.code])) }] : []} />
        )}
      </Card>

      <Card size="small">
        <Space>
          <Popconfirm title={`确定向 ${picked.length} 台设备写入「${description}」？`} description="离线设备的指令会等待其上线后下发" disabled={!check?.ok || !picked.length} onConfirm={() => send.mutate()}>
            <PreventClickButton type="primary" disabled={!check?.ok || !picked.length} loading={send.isPending} data-testid="batch-send">
              下发（{picked.length} 台）
            </PreventClickButton>
          </Popconfirm>
          {description && <Typography.Text type="secondary">{description}</Typography.Text>}
        </Space>
      </Card>

      {answer && (
        <Card size="small" title="3. 下发结果" data-testid="batch-result" extra={<Button loading={follow.isPending} onClick={() => follow.mutate(answer)}>刷新执行结果</Button>}>
          <Space size="large" style={{ marginBottom: 12 }}>
            <Statistic title="共" value={answer.total} suffix="台" />
            <Statistic title="已下发" value={answer.sent} styles={{ content: { color: '#389e0d' } }} />
            <Statistic title="等待上线" value={answer.queued} styles={{ content: { color: '#d46b08' } }} />
            <Statistic title="失败" value={answer.failed} styles={{ content: { color: answer.failed ? '#cf1322' : undefined } }} />
          </Space>
          {answer.failed > 0 && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={`${answer.failed} 台设备没有写入，原因见下表`} />}
          <Table<BatchParaResult>
            size="small"
            rowKey="deviceId"
            dataSource={answer.results}
            pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 条` }}
            columns={[
              { title: '设备编号', dataIndex: 'deviceCode', width: 170, render: (v: string | null, r) => v ?? `#${r.deviceId}` },
              { title: '设备名称', dataIndex: 'deviceName', ellipsis: true, render: (v: string | null) => v ?? '—' },
              {
                title: '下发结果', dataIndex: 'status', width: 110,
                filters: (['sent', 'queued', 'failed'] as const).map((s) => ({ text: BATCH_RESULT_LABELS[s].split('，')[0], value: s })),
                onFilter: (v, r) => r.status === v,
                render: (s: BatchParaResult['status']) => <Tag color={STATUS_COLORS[s]}>{s === 'queued' ? '等待上线' : BATCH_RESULT_LABELS[s]}</Tag>,
              },
              { title: '说明', dataIndex: 'message', ellipsis: true },
              {
                title: '执行结果', key: 'state', width: 150, render: (_, r) => {
                  if (r.commandId === null) return '—';
                  const c = states.get(r.commandId);
                  if (c === undefined) return <Typography.Text type="secondary">待查询</Typography.Text>;
                  if (c === null) return <Typography.Text type="secondary">无权查看</Typography.Text>;
                  return <Tag color={CMD_COLORS[c.status]} title={c.error ?? undefined}>{COMMAND_STATUS_LABELS[c.status]}{c.error ? `：${c.error}` : ''}</Tag>;
                },
              },
            ]}
          />
        </Card>
      )}
    </PageContainer>
  );
}

import { useState } from 'react';
import { App, Badge, Button, Form, Input, InputNumber, Select, Space, Switch, Tabs, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ALARM_SEVERITIES, DEVICE_TYPE_BY_CODE, MONITOR_OPERATORS, monitorRuleBody, type MonitorMessageRow,
  type MonitorOperator, type MonitorRuleBody, type MonitorRuleRow,
} from '@kelvin/contracts';
import { DataTable, updatedColumn } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { useDeviceTypes } from '../../devices';
import { monitoringApi, monitoringKeys, useLiveAlarms } from '../api';
import { SeverityTag } from '../components/tags';

const severityOptions = Object.entries(ALARM_SEVERITIES).map(([value, label]) => ({ value, label }));
const r = monitorRuleBody.shape;

/** monitorrules (监控规则): the alarm list of the project (what the bell counts) and the rules that raise alarms. */
export default function MonitorRulesPage() {
  const projectId = useProjectId();
  useLiveAlarms(projectId);
  const [tab, setTab] = useState('messages');
  if (projectId === null) return <NoProject title="监控规则" />;
  return (
    <PageContainer title="监控规则">
      <Tabs activeKey={tab} onChange={setTab} items={[
        { key: 'messages', label: '告警消息', children: <AlarmList projectId={projectId} /> },
        { key: 'rules', label: '监控规则', children: <RuleList projectId={projectId} /> },
      ]} />
    </PageContainer>
  );
}

function AlarmList({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [selected, setSelected] = useState<number[]>([]);
  const [acking, setAcking] = useState<{ ids: number[]; close: boolean } | null>(null);
  const [form] = Form.useForm<{ comment?: string }>();
  const act = useMutation({
    mutationFn: (v: { ids: number[]; close: boolean; comment?: string }) => (v.close ? monitoringApi.close(v.ids, v.comment) : monitoringApi.acknowledge(v.ids, v.comment)),
    onSuccess: (res, v) => {
      message.success(v.close ? `已关闭 ${res.updated} 条` : `已确认 ${res.updated} 条`);
      setAcking(null);
      setSelected([]);
      void qc.invalidateQueries({ queryKey: monitoringKeys.all });
    },
  });
  const open = (ids: number[], close: boolean) => {
    form.resetFields();
    setAcking({ ids, close });
  };

  return (
    <>
      <DataTable<MonitorMessageRow>
        queryKey={monitoringKeys.messages(projectId)}
        fetchPage={monitoringApi.messages}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'status', label: '状态', kind: 'select', width: 140, options: [{ value: 'active', label: '告警中' }, { value: 'cleared', label: '已恢复' }] },
          { name: 'read', label: '确认', kind: 'select', width: 140, options: [{ value: '0', label: '未确认' }, { value: '1', label: '已确认' }] },
          { name: 'severity', label: '级别', kind: 'select', width: 140, options: severityOptions },
        ]}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
        toolbar={(
          <Can code="monitorrules:btn_edit">
            <Space>
              <Button disabled={!selected.length} onClick={() => open(selected, false)}>确认所选（{selected.length}）</Button>
              <Button danger disabled={!selected.length} onClick={() => open(selected, true)}>关闭所选</Button>
            </Space>
          </Can>
        )}
        columns={[
          { title: '告警时间', dataIndex: 'createdAt', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '级别', dataIndex: 'severity', width: 80, render: (_, m) => <SeverityTag severity={m.severity} label={m.severityLabel} /> },
          { title: '设备', key: 'device', width: 200, render: (_, m) => <span>{m.deviceName}<br /><Typography.Text type="secondary">{m.deviceCode}</Typography.Text></span> },
          { title: '规则', dataIndex: 'ruleName', width: 140 },
          { title: '条件', dataIndex: 'description', width: 200 },
          { title: '触发值', dataIndex: 'value', width: 110 },
          {
            title: '状态', key: 'status', width: 160, render: (_, m) => (m.status === 'active'
              ? <Badge status="error" text="告警中" />
              : <span><Badge status="success" text="已恢复" /><br /><Typography.Text type="secondary">{m.clearedAt ? formatDateTime(m.clearedAt) : ''}</Typography.Text></span>),
          },
          {
            title: '确认', key: 'read', width: 190, render: (_, m) => (m.read
              ? <span>{m.readBy} {m.readAt ? formatDateTime(m.readAt, 'MM-DD HH:mm') : ''}{m.comment ? <><br /><Typography.Text type="secondary">{m.comment}</Typography.Text></> : null}</span>
              : <Typography.Text type="warning">未确认</Typography.Text>),
          },
          {
            title: '操作', key: 'op', width: 130, fixed: 'right', render: (_, m) => (
              <Can code="monitorrules:btn_edit">
                <Space size={4}>
                  {!m.read && <Button type="link" size="small" onClick={() => open([m.id], false)}>确认</Button>}
                  {m.status === 'active' && <Button type="link" size="small" danger onClick={() => open([m.id], true)}>关闭</Button>}
                </Space>
              </Can>
            ),
          },
        ]}
        scrollX={1400}
      />
      <FormModal open={!!acking} title={acking?.close ? `关闭 ${acking.ids.length} 条告警` : `确认 ${acking?.ids.length ?? 0} 条告警`} onClose={() => setAcking(null)}
        form={form} saving={act.isPending} onSave={(v) => acking && act.mutate({ ...acking, comment: v.comment?.trim() || undefined })}
        okText={acking?.close ? '关闭' : '确认'} okDanger={acking?.close}>
        {acking?.close && <Typography.Paragraph type="secondary">关闭后告警结束；若条件仍然成立，设备下次上报时会重新告警。</Typography.Paragraph>}
        <Form.Item name="comment" label="处理说明" rules={[{ max: 200, message: '说明最多 200 个字符' }]}>
          <Input.TextArea rows={3} placeholder="例如：已通知物业上门查看" maxLength={200} showCount />
        </Form.Item>
      </FormModal>
    </>
  );
}

function RuleList({ projectId }: { projectId: number }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<MonitorRuleRow | 'new' | null>(null);
  const [form] = Form.useForm<MonitorRuleBody>();
  const types = useDeviceTypes(projectId);
  const refresh = () => qc.invalidateQueries({ queryKey: monitoringKeys.all });
  const save = useChange(
    (b: MonitorRuleBody) => (editing === 'new' ? monitoringApi.createRule(b) : monitoringApi.updateRule((editing as MonitorRuleRow).id, b)),
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const toggle = useMutation({
    mutationFn: (x: MonitorRuleRow) => monitoringApi.updateRule(x.id, { ...bodyOf(x), enabled: !x.enabled }),
    onSuccess: () => void refresh(),
  });
  const remove = useChange((id: number) => monitoringApi.removeRules([id]), { done: '删除成功', refresh });

  const deviceType = Form.useWatch('deviceType', form);
  const operator = Form.useWatch('operator', form) as MonitorOperator | undefined;
  const fieldCode = Form.useWatch('fieldCode', form);
  const fields = (deviceType ? DEVICE_TYPE_BY_CODE.get(deviceType)?.fields ?? [] : []).filter((f) => f.kind === 'number' || f.kind === 'enum' || f.kind === 'bool');
  const field = fields.find((f) => f.code === fieldCode);

  const open = (x: MonitorRuleRow | 'new') => {
    form.resetFields();
    form.setFieldsValue(x === 'new'
      ? { projectId, operator: 'gt', severity: 'major', forSeconds: 0, forReports: 0, notifySms: false, enabled: true }
      : bodyOf(x));
    setEditing(x);
  };

  return (
    <>
      <DataTable<MonitorRuleRow>
        queryKey={monitoringKeys.rules(projectId)}
        fetchPage={monitoringApi.rules}
        params={{ projectId }}
        rowKey="id"
        filters={[{ name: 'keyword', label: '规则名称', placeholder: '输入名称' }]}
        toolbar={<Can code="monitorrules:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>新增</Button></Can>}
        columns={[
          { title: '规则名称', dataIndex: 'name', width: 150 },
          { title: '设备类型', dataIndex: 'typeName', width: 150 },
          { title: '条件', dataIndex: 'description', width: 240 },
          { title: '级别', dataIndex: 'severity', width: 80, render: (_, x) => <SeverityTag severity={x.severity} label={x.severityLabel} /> },
          { title: '启用时段', key: 'hours', width: 120, render: (_, x) => (x.activeFrom ? `${x.activeFrom}–${x.activeTo}` : '全天') },
          { title: '短信', dataIndex: 'notifySms', width: 70, render: (v: boolean) => (v ? '发送' : '—') },
          { title: '告警中', dataIndex: 'activeAlarms', width: 80, render: (v: number) => (v ? <Badge count={v} /> : 0) },
          {
            title: '启用', dataIndex: 'enabled', width: 80,
            render: (_, x) => <Can code="monitorrules:btn_edit" fallback={x.enabled ? '是' : '否'}><Switch size="small" checked={x.enabled} loading={toggle.isPending} onChange={() => toggle.mutate(x)} /></Can>,
          },
          updatedColumn(170),
          {
            title: '操作', key: 'op', width: 120, fixed: 'right', render: (_, x) => (
              <Space size={4}>
                <Can code="monitorrules:btn_edit"><Button type="link" size="small" onClick={() => open(x)}>编辑</Button></Can>
                <DeleteLink code="monitorrules:btn_del" title={`确定删除规则「${x.name}」？`} description="已产生的告警记录保留" onConfirm={() => remove.mutate(x.id)} />
              </Space>
            ),
          },
        ]}
        scrollX={1300}
      />
      <FormModal open={!!editing} title={editing === 'new' ? '新增监控规则' : '编辑监控规则'} width={560} onClose={() => setEditing(null)} form={form} saving={save.isPending}
        onSave={(v) => save.mutate({ ...v, projectId, fieldCode: v.operator === 'offline' ? '' : v.fieldCode, thresholdHigh: v.operator === 'outside' ? v.thresholdHigh : null, activeFrom: v.activeFrom || null, activeTo: v.activeTo || null })}>
        <Form.Item name="name" label="规则名称" rules={[zodRule(r.name)]}><Input placeholder="例如：房间过热" maxLength={40} /></Form.Item>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="deviceType" label="设备类型" rules={[{ required: true, message: '请选择设备类型' }]} style={{ flex: 1 }}>
            <Select placeholder="选择设备类型" options={(types.data ?? []).map((t) => ({ value: t.code, label: t.name }))} onChange={() => form.setFieldValue('fieldCode', undefined)} />
          </Form.Item>
          <Form.Item name="operator" label="条件" rules={[{ required: true, message: '请选择条件' }]} style={{ flex: 1 }}>
            <Select options={Object.entries(MONITOR_OPERATORS).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
        </div>
        {operator !== 'offline' && (
          <Form.Item name="fieldCode" label="监测字段" rules={[{ required: true, message: '请选择监测字段' }]}>
            <Select placeholder={deviceType ? '选择字段' : '请先选择设备类型'} disabled={!deviceType}
              options={fields.map((f) => ({ value: f.code, label: `${f.label}${f.unit ? `（${f.unit}）` : ''}` }))} />
          </Form.Item>
        )}
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="threshold" label={`${operator === 'offline' ? '离线分钟数' : operator === 'outside' ? '正常下限' : operator === 'delta' ? '变化量' : '阈值'}${operator !== 'offline' && field?.unit ? `（${field.unit}）` : ''}`}
            rules={[{ required: true, message: '请输入阈值' }]} style={{ flex: 1 }}
            extra={field?.kind === 'enum' && field.options ? Object.entries(field.options).map(([k, v]) => `${k}=${v}`).join('，') : undefined}>
            <InputNumber style={{ width: '100%' }} min={operator === 'offline' ? 1 : undefined} max={operator === 'offline' ? 10080 : undefined} />
          </Form.Item>
          {operator === 'outside' && (
            <Form.Item name="thresholdHigh" label={`正常上限${field?.unit ? `（${field.unit}）` : ''}`} rules={[{ required: true, message: '请输入上限' }]} style={{ flex: 1 }}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          )}
        </div>
        {operator !== 'offline' && (
          <div style={{ display: 'flex', gap: 12 }}>
            <Form.Item name="forSeconds" label="持续（秒）" tooltip="条件持续成立这么久才告警，避免瞬时波动" style={{ flex: 1 }}>
              <InputNumber style={{ width: '100%' }} min={0} max={86400} />
            </Form.Item>
            <Form.Item name="forReports" label="连续次数" tooltip="连续这么多次上报都满足条件才告警（0 或 1 为首次即告警）" style={{ flex: 1 }}>
              <InputNumber style={{ width: '100%' }} min={0} max={1000} />
            </Form.Item>
          </div>
        )}
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="severity" label="级别" style={{ flex: 1 }}><Select options={severityOptions} /></Form.Item>
          <Form.Item name="activeFrom" label="启用时段开始" rules={[{ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: '格式为 HH:MM' }]} style={{ flex: 1 }}>
            <Input placeholder="全天留空，如 08:00" allowClear />
          </Form.Item>
          <Form.Item name="activeTo" label="结束" rules={[{ pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: '格式为 HH:MM' }]} style={{ flex: 1 }}>
            <Input placeholder="如 18:00" allowClear />
          </Form.Item>
        </div>
        <Space size={32}>
          <Form.Item name="notifySms" label="短信通知" valuePropName="checked" tooltip="发送到默认短信设置中的告警接收手机号"><Switch /></Form.Item>
          <Form.Item name="enabled" label="启用" valuePropName="checked"><Switch /></Form.Item>
        </Space>
      </FormModal>
    </>
  );
}

function bodyOf(x: MonitorRuleRow): MonitorRuleBody {
  return {
    projectId: x.projectId, name: x.name, deviceType: x.deviceType, fieldCode: x.fieldCode, operator: x.operator, threshold: x.threshold,
    thresholdHigh: x.thresholdHigh, forSeconds: x.forSeconds, forReports: x.forReports, severity: x.severity, notifySms: x.notifySms, enabled: x.enabled, activeFrom: x.activeFrom, activeTo: x.activeTo,
  };
}

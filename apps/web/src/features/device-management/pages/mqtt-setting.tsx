import { useEffect, useState } from 'react';
import { App, Badge, Button, Card, Descriptions, Form, Input, InputNumber, Popconfirm, Space, Spin, Switch, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mqttSettingBody, type DeviceCredentials, type DeviceRow, type MqttSettingView } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can, PreventClickButton, useCan } from '../../../lib/ui';
import { CredentialsView } from '../components/device-placement';
import { dmApi, dmKeys } from '../api';
import { QrButton } from '../components/qr-button';
import { deviceApi, deviceKeys } from '../../devices';

const s = mqttSettingBody.shape;

function brokerText(v: MqttSettingView) {
  if (v.broker.kind === 'embedded') return `本平台内置 MQTT 服务，端口 ${v.broker.port}`;
  if (v.broker.kind === 'external') return `外部 MQTT 服务 ${v.broker.host ?? '—'}:${v.broker.port ?? '—'}`;
  return '本平台未启用 MQTT 服务';
}

/** mqttSetting_n (MQTT 设置, PT5000): the address, port and topics installers load into devices, and each device's secret. */
export default function MqttSetting() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan('mqttSetting_n:btn_edit');
  const [creds, setCreds] = useState<DeviceCredentials | null>(null);
  const [form] = Form.useForm<{ host: string; port: number; tls: boolean }>();
  const setting = useQuery({ queryKey: dmKeys.mqttSetting(projectId), queryFn: () => dmApi.mqttSetting(projectId!), enabled: projectId !== null });
  const v = setting.data;

  useEffect(() => {
    if (!v) return;
    // unset: suggest the address this console is reached at, and the broker's own port
    form.setFieldsValue({ host: v.host ?? window.location.hostname, port: v.port ?? v.broker.port ?? 1883, tls: v.tls });
  }, [v, form]);

  const save = useMutation({
    mutationFn: (x: { host: string; port: number; tls: boolean }) => dmApi.saveMqttSetting({ projectId: projectId!, ...x }),
    onSuccess: (r) => {
      message.success('保存成功');
      qc.setQueryData(dmKeys.mqttSetting(projectId), r);
    },
  });
  const reissue = useMutation({ mutationFn: (id: number) => dmApi.reissue(id), onSuccess: setCreds });

  if (projectId === null) return <NoProject title="MQTT 设置" />;
  const address = v?.host ? `${v.tls ? 'mqtts' : 'mqtt'}://${v.host}:${v.port}` : null;

  return (
    <PageContainer title="MQTT 设置">
      <Spin spinning={setting.isLoading}>
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <Card size="small" title="设备接入地址" style={{ flex: '1 1 420px' }}>
            {v && <Typography.Paragraph type="secondary">{brokerText(v)}。设备连接的地址须是设备所在网络能访问到的域名或 IP。</Typography.Paragraph>}
            <Form form={form} layout="vertical" name="mqttForm" disabled={!canEdit}>
              <Space align="start" wrap>
                <Form.Item name="host" label="服务器地址" required rules={[zodRule(s.host)]}><Input style={{ width: 260 }} placeholder="域名或 IP" /></Form.Item>
                <Form.Item name="port" label="端口" required rules={[zodRule(s.port)]}><InputNumber min={1} max={65535} style={{ width: 120 }} /></Form.Item>
                <Form.Item name="tls" label="TLS 加密" valuePropName="checked"><Switch /></Form.Item>
              </Space>
            </Form>
            <Space>
              <Can code="mqttSetting_n:btn_edit">
                <PreventClickButton type="primary" loading={save.isPending} onClick={() => form.validateFields().then((x) => save.mutate({ ...x, tls: !!x.tls }), () => undefined)}>保存</PreventClickButton>
              </Can>
              {v?.updatedAt ? <Typography.Text type="secondary">{v.updatedBy ?? '—'} 于 {formatDateTime(v.updatedAt)} 保存</Typography.Text> : <Typography.Text type="warning">尚未保存，上面是建议值</Typography.Text>}
            </Space>
          </Card>
          {v && (
            <Card size="small" title="设备写入参数" style={{ flex: '1 1 420px' }}>
              <Descriptions size="small" column={1} bordered items={[
                { label: '服务器', children: address ? <Typography.Text copyable code>{address}</Typography.Text> : <Typography.Text type="warning">未设置</Typography.Text> },
                { label: '协议', children: 'MQTT 3.1.1，QoS 1' },
                { label: 'Client ID / 用户名', children: '设备编号' },
                { label: '密码', children: '设备接入密钥（新建或重新生成时只显示一次）' },
                { label: '上报主题', children: <Typography.Text code copyable>{v.topics.up}</Typography.Text> },
                { label: '指令主题', children: <Typography.Text code copyable>{v.topics.down}</Typography.Text> },
                { label: '应答主题', children: <Typography.Text code copyable>{v.topics.ack}</Typography.Text> },
              ]} />
            </Card>
          )}
        </div>
      </Spin>

      <DataTable<DeviceRow>
        title="设备接入密钥"
        queryKey={deviceKeys.list('mqtt')}
        fetchPage={deviceApi.list}
        params={{ projectId }}
        rowKey="id"
        filters={[{ name: 'keyword', label: '设备', placeholder: '设备编号或名称' }, { name: 'online', label: '在线', kind: 'select', width: 110, options: [{ value: '1', label: '在线' }, { value: '0', label: '离线' }] }]}
        columns={[
          { title: '设备编号（Client ID）', dataIndex: 'deviceCode', width: 250, render: (c: string) => <Typography.Text copyable>{c}</Typography.Text> },
          { title: '设备名称', dataIndex: 'deviceName', ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 150 },
          { title: '状态', key: 'online', width: 90, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
          { title: '最后上报', dataIndex: 'lastReportAt', width: 165, render: (x: number | null) => (x ? formatDateTime(x) : '从未上报') },
          {
            title: '操作', key: 'op', width: 200, render: (_, d) => (
              <Space size={2}>
                <Can code="mqttSetting_n:btn_edit">
                  <Popconfirm title={`重新生成「${d.deviceName}」的接入密钥？`} description="旧密钥立即失效，在线的设备会被断开，需写入新密钥后才能重新接入" onConfirm={() => reissue.mutate(d.id)}>
                    <Button type="link" size="small">重新生成密钥</Button>
                  </Popconfirm>
                </Can>
                <QrButton device={d} />
              </Space>
            ),
          },
        ]}
      />

      <AppModal title="设备接入密钥" open={creds !== null} onCancel={() => setCreds(null)} footer={<Button type="primary" onClick={() => setCreds(null)}>我已保存</Button>}>
        {creds && (
          <>
            {address && <Typography.Paragraph>服务器：<Typography.Text code copyable>{address}</Typography.Text></Typography.Paragraph>}
            <CredentialsView c={creds} />
          </>
        )}
      </AppModal>
    </PageContainer>
  );
}

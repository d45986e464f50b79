import { useState } from 'react';
import { App, Button, Card, Col, Form, Input, Popconfirm, Row, Select, Space, Spin, Switch, Tag, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SMS_KINDS, SMS_STATUSES, mobilePhone, smsTemplateUpdate, unknownTemplateVars, type SmsKind } from '@kelvin/contracts/system';
import { PageContainer } from '../../../components/page';
import { zodRule } from '../../../lib/form';
import { Can, useAppModal } from '../../../lib/ui';
import { FormModal } from '../../../components/form-modal';
import { smsApi, systemKeys, type SmsKindInfo } from '../api';

const statusName = (s: string) => SMS_STATUSES.find((x) => x.code === s)?.name ?? s;

/** smsManager (短信管理): the template of each warning the platform sends, and a test send through the provider. */
export default function SmsManager() {
  const { message } = App.useApp();
  const modal = useAppModal();
  const qc = useQueryClient();
  const kinds = useQuery({ queryKey: systemKeys.smsKinds, queryFn: smsApi.kinds });
  const [editing, setEditing] = useState<SmsKindInfo | null>(null);
  const [testing, setTesting] = useState(false);
  const [form] = Form.useForm();
  const [testForm] = Form.useForm();
  const refresh = () => qc.invalidateQueries({ queryKey: systemKeys.smsKinds });

  const save = useMutation({
    mutationFn: (v: { name: string; content: string; externalCode?: string; enabled: boolean }) => (editing?.template
      ? smsApi.updateTemplate(editing.template.id, v)
      : smsApi.createTemplate({ ...v, kind: editing!.kind })),
    onSuccess: () => {
      message.success('模板已保存');
      setEditing(null);
      refresh();
    },
  });
  const restore = useMutation({
    mutationFn: (id: number) => smsApi.removeTemplate(id),
    onSuccess: () => {
      message.success('已恢复为系统默认模板');
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: (v: { phone: string; kind: SmsKind }) => smsApi.test(v),
    onSuccess: (r) => {
      setTesting(false);
      modal.info({
        title: `测试短信：${statusName(r.status)}`,
        content: (
          <div>
            <p>{r.signName ? `【${r.signName}】` : ''}{r.content}</p>
            {r.error && <p style={{ color: '#cf1322' }}>{r.error}</p>}
            <p style={{ color: '#888' }}>已记入短信记录。</p>
          </div>
        ),
      });
    },
  });

  const open = (k: SmsKindInfo) => {
    setEditing(k);
    form.resetFields();
    form.setFieldsValue(k.template ?? { name: k.name, content: k.defaultContent, enabled: true });
  };

  return (
    <PageContainer
      title="短信管理"
      extra={<Can code="smsManager:btn_add"><Button icon={<SendOutlined />} onClick={() => { testForm.resetFields(); testForm.setFieldsValue({ kind: 'low_balance' }); setTesting(true); }}>发送测试短信</Button></Can>}
    >
      {kinds.isLoading ? <Spin /> : (
        <Row gutter={[12, 12]}>
          {(kinds.data ?? []).map((k) => (
            <Col key={k.kind} xs={24} lg={8}>
              <Card
                size="small"
                data-testid={`sms-kind-${k.kind}`}
                title={k.name}
                extra={k.template ? (k.template.enabled ? <Tag color="green">自定义模板</Tag> : <Tag color="red">已停用</Tag>) : <Tag>系统默认</Tag>}
                actions={[
                  <Can key="e" code={k.template ? 'smsManager:btn_edit' : 'smsManager:btn_add'}><Button type="link" onClick={() => open(k)}>{k.template ? '编辑模板' : '自定义模板'}</Button></Can>,
                  ...(k.template ? [
                    <Can key="d" code="smsManager:btn_del">
                      <Popconfirm title="确定删除自定义模板并恢复系统默认？" onConfirm={() => restore.mutate(k.template!.id)}><Button type="link" danger>恢复默认</Button></Popconfirm>
                    </Can>,
                  ] : []),
                ]}
              >
                <Typography.Paragraph style={{ minHeight: 66 }}>{k.template?.content ?? k.defaultContent}</Typography.Paragraph>
                <Space wrap size={4}>
                  <span style={{ color: '#888' }}>可用变量：</span>
                  {k.vars.map((v) => <Tag key={v}>{`{${v}}`}</Tag>)}
                </Space>
                {k.template?.externalCode && <div style={{ marginTop: 8, color: '#888' }}>服务商模板编号：{k.template.externalCode}</div>}
              </Card>
            </Col>
          ))}
        </Row>
      )}

      <FormModal title={`${editing?.template ? '编辑' : '自定义'}模板：${editing?.name ?? ''}`} open={editing !== null} width={640} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="name" label="模板名称" required rules={[zodRule(smsTemplateUpdate.shape.name)]}><Input maxLength={50} /></Form.Item>
        <Form.Item
          name="content"
          label="短信内容"
          required
          extra={`可用变量：${editing?.vars.map((v) => `{${v}}`).join(' ') ?? ''}；签名由服务商自动添加`}
          rules={[zodRule(smsTemplateUpdate.shape.content), { validator: async (_r, v: string) => {
            const bad = editing ? unknownTemplateVars(editing.kind, v ?? '') : [];
            if (bad.length) throw new Error(`模板变量 {${bad[0]}} 不适用于该类型`);
          } }]}
        >
          <Input.TextArea rows={4} maxLength={300} showCount />
        </Form.Item>
        <Form.Item name="externalCode" label="服务商模板编号" extra="使用阿里云等服务商时填写已审核的模板编号（如 SMS_123456789）"><Input maxLength={64} /></Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked"><Switch /></Form.Item>
      </FormModal>

      <FormModal title="发送测试短信" open={testing} onClose={() => setTesting(false)} form={testForm} saving={test.isPending} onSave={(v) => test.mutate(v)} okText="发送">
        <Form.Item name="phone" label="手机号" required rules={[zodRule(mobilePhone)]}><Input maxLength={11} /></Form.Item>
        <Form.Item name="kind" label="短信类型"><Select options={SMS_KINDS.map((k) => ({ value: k.code, label: k.name }))} /></Form.Item>
      </FormModal>
    </PageContainer>
  );
}

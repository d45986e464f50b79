import { useState } from 'react';
import { App, Button, Col, Divider, Form, Input, Popconfirm, Row, Space, Switch, Tabs, Tag, Upload } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LOGO_MAX_BYTES, passwordProblem, tenantCreate, type TenantDto } from '@kelvin/contracts/admin';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can, useCan } from '../../../lib/ui';
import { FormModal, DeleteLink } from '../../../components/form-modal';
import { adminKeys, tenantApi } from '../api';
import { ApplicationsTabLabel, RegistrationApplications } from '../../public';

const f = tenantCreate.shape;

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** tenantManager (租户管理): platform administrators create, edit, disable tenants with brand, filing number and logo. */
export default function TenantManager() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<TenantDto | 'new' | null>(null);
  const [form] = Form.useForm();
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const canEdit = useCan('tenantManager:btn_edit');
  const refresh = () => qc.invalidateQueries({ queryKey: adminKeys.tenants });

  const save = useChange(
    async (values: Record<string, unknown>) => {
      const { adminUsername, adminName, adminPassword, ...fields } = values;
      const body = { ...fields, ...(logo !== undefined ? { logo } : {}) };
      if (editing === 'new') {
        const admin = adminUsername ? { username: adminUsername, name: adminName, password: adminPassword } : undefined;
        return tenantApi.create({ ...body, admin });
      }
      return tenantApi.update((editing as TenantDto).id, body);
    },
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );

  const toggle = useMutation({
    mutationFn: (t: TenantDto) => tenantApi.update(t.id, { enabled: !t.enabled }),
    onSuccess: (t) => {
      message.success(t.enabled ? '已启用' : '已停用，该租户的用户已无法登录');
      refresh();
    },
  });

  const remove = useChange((id: number) => tenantApi.remove(id), { done: '删除成功', refresh });

  const open = (t: TenantDto | 'new') => {
    setEditing(t);
    setLogo(undefined);
    form.resetFields();
    if (t !== 'new') form.setFieldsValue({ ...t });
    else form.setFieldsValue({ enabled: true });
  };

  return (
    <PageContainer title="租户管理">
      <Tabs items={[{ key: 'tenants', label: '租户列表', children: (<>
      <DataTable<TenantDto>
        queryKey={adminKeys.tenants}
        fetchPage={tenantApi.page}
        rowKey="id"
        filters={[
          { name: 'keyword', label: '关键字', placeholder: '名称、编码或品牌' },
          { name: 'enabled', label: '状态', kind: 'select', options: [{ label: '启用', value: '1' }, { label: '停用', value: '0' }] },
        ]}
        toolbar={<Can code="tenantManager:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>新增租户</Button></Can>}
        columns={[
          { title: '编码', dataIndex: 'code', width: 120 },
          { title: '名称', dataIndex: 'name' },
          { title: '品牌名称', dataIndex: 'brand', render: (v) => v ?? '—' },
          { title: '备案号', dataIndex: 'filingNo', render: (v) => v ?? '—' },
          { title: '联系人', dataIndex: 'contact', render: (v, t) => (v ? `${v}${t.phone ? ` ${t.phone}` : ''}` : '—') },
          { title: '标志', dataIndex: 'hasLogo', width: 80, render: (v, t) => (v ? <img alt="标志" src={`/api/v1/tenant/logo?tenantId=${t.id}`} style={{ maxHeight: 24, maxWidth: 64 }} /> : '—') },
          { title: '用户数', dataIndex: 'userCount', width: 80 },
          { title: '状态', dataIndex: 'enabled', width: 80, render: (v) => (v ? <Tag color="green">启用</Tag> : <Tag color="red">停用</Tag>) },
          { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (v) => formatDateTime(v) },
          {
            title: '操作', key: 'op', width: 200, render: (_, t) => (
              <Space size={4}>
                <Can code="tenantManager:btn_edit"><Button type="link" size="small" onClick={() => open(t)}>编辑</Button></Can>
                {canEdit && t.id !== 0 && (
                  <Popconfirm title={t.enabled ? `确定停用租户「${t.name}」？其用户将立即退出且无法登录` : `确定启用租户「${t.name}」？`} onConfirm={() => toggle.mutate(t)}>
                    <Button type="link" size="small" danger={t.enabled}>{t.enabled ? '停用' : '启用'}</Button>
                  </Popconfirm>
                )}
                {t.id !== 0 && (
                  <DeleteLink code="tenantManager:btn_del" title={`确定删除租户「${t.name}」？`} onConfirm={() => remove.mutate(t.id)} />
                )}
              </Space>
            ),
          },
        ]}
      />
      <FormModal title={editing === 'new' ? '新增租户' : '编辑租户'} open={editing !== null} width={720} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="code" label="租户编码" required rules={[zodRule(f.code)]} extra={editing === 'new' ? '小写字母、数字、_ 和 -；设备主题使用，创建后不能修改' : undefined}>
              <Input disabled={editing !== 'new'} maxLength={32} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label="租户名称" required rules={[zodRule(f.name)]}><Input maxLength={100} /></Form.Item>
          </Col>
          <Col span={12}><Form.Item name="contact" label="联系人" rules={[zodRule(f.contact)]}><Input maxLength={100} /></Form.Item></Col>
          <Col span={12}><Form.Item name="phone" label="联系电话" rules={[zodRule(f.phone)]}><Input maxLength={32} /></Form.Item></Col>
          <Col span={12}><Form.Item name="brand" label="品牌名称" extra="显示在顶栏和页脚" rules={[zodRule(f.brand)]}><Input maxLength={100} /></Form.Item></Col>
          <Col span={12}><Form.Item name="filingNo" label="备案号" extra="显示在页脚" rules={[zodRule(f.filingNo)]}><Input maxLength={100} /></Form.Item></Col>
          <Col span={12}>
            <Form.Item label="标志（可选）" extra="PNG、JPEG、WebP 或 GIF，不超过 256 KB">
              <Space>
                <Upload
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  showUploadList={false}
                  beforeUpload={async (file) => {
                    if (file.size > LOGO_MAX_BYTES) message.error('标志图片不能超过 256 KB');
                    else setLogo(await readDataUrl(file));
                    return false;
                  }}
                >
                  <Button icon={<UploadOutlined />}>选择图片</Button>
                </Upload>
                {logo ? <img alt="标志预览" src={logo} style={{ maxHeight: 32 }} />
                  : logo === undefined && editing !== 'new' && editing?.hasLogo ? <img alt="当前标志" src={`/api/v1/tenant/logo?tenantId=${editing.id}`} style={{ maxHeight: 32 }} /> : null}
                {(logo || (logo === undefined && editing !== 'new' && editing?.hasLogo)) && <Button type="link" onClick={() => setLogo(null)}>移除</Button>}
              </Space>
            </Form.Item>
          </Col>
          <Col span={12}><Form.Item name="enabled" label="启用" valuePropName="checked"><Switch disabled={editing !== 'new' && editing?.id === 0} /></Form.Item></Col>
        </Row>
        {editing === 'new' && (
          <>
            <Divider titlePlacement="start" plain>租户管理员（可选：创建后拥有本租户全部功能）</Divider>
            <Row gutter={16}>
              <Col span={8}><Form.Item name="adminUsername" label="管理员账号"><Input maxLength={64} autoComplete="off" /></Form.Item></Col>
              <Col span={8}>
                <Form.Item name="adminName" label="管理员姓名" dependencies={['adminUsername']} rules={[({ getFieldValue }) => ({ required: Boolean(getFieldValue('adminUsername')), message: '请输入管理员姓名' })]}>
                  <Input maxLength={50} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item
                  name="adminPassword"
                  label="初始密码"
                  dependencies={['adminUsername']}
                  rules={[({ getFieldValue }) => ({
                    validator: async (_r, v) => {
                      if (!getFieldValue('adminUsername')) return;
                      const problem = passwordProblem(v ?? '', String(getFieldValue('adminUsername')));
                      if (problem) throw new Error(problem);
                    },
                  })]}
                >
                  <Input.Password maxLength={128} autoComplete="new-password" />
                </Form.Item>
              </Col>
            </Row>
          </>
        )}
      </FormModal>
      </>) }, { key: 'applications', label: <ApplicationsTabLabel />, children: <RegistrationApplications onApproved={() => void qc.invalidateQueries({ queryKey: adminKeys.tenants })} /> }]} />
    </PageContainer>
  );
}

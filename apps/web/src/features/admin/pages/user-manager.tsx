import { useState } from 'react';
import { App, Button, Col, Form, Input, Popconfirm, Row, Select, Space, Switch, Tag, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AreaTreeNode } from '@kelvin/contracts';
import { passwordForUser, userCreate, type UserDto } from '@kelvin/contracts/admin';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { ConfirmPasswordItem, FormModal, DeleteLink } from '../../../components/form-modal';
import { useSession } from '../../../stores/session';
import { adminKeys, userApi } from '../api';
import { areaApi, projectApi, projectKeys } from '../../projects';
import { useTenantScope } from '../components/tenant-scope';

const f = userCreate.shape;

/** Projects of the tenant being managed: the platform lists every tenant's projects, others their visible ones. */
function useProjectOptions(tenantId: number | undefined, isPlatform: boolean) {
  return useQuery({
    queryKey: projectKeys.options(isPlatform ? tenantId : 'own'),
    queryFn: async () => {
      if (isPlatform) {
        const page = await projectApi.page({ pageNo: 1, pageSize: 200 });
        return page.rows.filter((p) => p.tenantId === tenantId).map((p) => ({ value: p.id, label: p.name }));
      }
      const roots = await areaApi.regions();
      const out: { value: number; label: string }[] = [];
      const walk = (nodes: AreaTreeNode[]) => nodes.forEach((n) => (n.level === 'project' ? out.push({ value: n.id, label: n.label }) : walk(n.children)));
      walk(roots);
      return out;
    },
  });
}

/** userManager (用户管理): users of the tenant, roles, granted projects, enable/disable and password reset. */
export default function UserManager() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const me = useSession((s) => s.user);
  const { tenantId, selector } = useTenantScope();
  const [editing, setEditing] = useState<UserDto | 'new' | null>(null);
  const [resetting, setResetting] = useState<UserDto | null>(null);
  const [form] = Form.useForm();
  const [pwForm] = Form.useForm();
  const username = Form.useWatch('username', form) as string | undefined;
  const allProjects = Form.useWatch('allProjects', form) as boolean | undefined;
  const roles = useQuery({ queryKey: adminKeys.roleOptions(tenantId), queryFn: () => userApi.roles(tenantId) });
  const projects = useProjectOptions(tenantId, Boolean(me?.isPlatform));
  const refresh = () => qc.invalidateQueries({ queryKey: adminKeys.users });

  const save = useChange(
    (values: Record<string, unknown>) => (editing === 'new'
      ? userApi.create({ ...values, ...(me?.isPlatform ? { tenantId } : {}) })
      : userApi.update((editing as UserDto).id, values)),
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const toggle = useMutation({
    mutationFn: (u: UserDto) => userApi.update(u.id, { enabled: !u.enabled }),
    onSuccess: (u) => {
      message.success(u.enabled ? '已启用' : '已停用，该用户已退出登录');
      refresh();
    },
  });
  const remove = useChange((id: number) => userApi.remove(id), { done: '删除成功', refresh });
  const reset = useMutation({
    mutationFn: (password: string) => userApi.resetPassword(resetting!.id, password),
    onSuccess: () => {
      message.success('密码已重置，该用户需用新密码重新登录');
      setResetting(null);
    },
  });

  const open = (u: UserDto | 'new') => {
    setEditing(u);
    form.resetFields();
    form.setFieldsValue(u === 'new'
      ? { enabled: true, allProjects: false, roleIds: [], projectIds: [] }
      : { ...u, roleIds: u.roles.map((r) => r.id) });
  };

  const roleOptions = (roles.data ?? []).map((r) => ({
    value: r.id,
    label: r.grantable ? r.name : `${r.name}（含您没有的权限）`,
    disabled: !r.grantable,
  }));

  return (
    <PageContainer title="用户管理" extra={selector}>
      <DataTable<UserDto>
        queryKey={adminKeys.userList(tenantId)}
        fetchPage={userApi.page}
        params={{ tenantId }}
        rowKey="id"
        filters={[
          { name: 'keyword', label: '关键字', placeholder: '账号、姓名或电话' },
          { name: 'roleId', label: '角色', kind: 'select', options: (roles.data ?? []).map((r) => ({ label: r.name, value: r.id })) },
          { name: 'enabled', label: '状态', kind: 'select', options: [{ label: '启用', value: '1' }, { label: '停用', value: '0' }] },
        ]}
        toolbar={<Can code="userManager:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>新增用户</Button></Can>}
        columns={[
          { title: '账号', dataIndex: 'username', width: 140 },
          { title: '姓名', dataIndex: 'name', width: 120 },
          { title: '电话', dataIndex: 'phone', width: 130, render: (v) => v ?? '—' },
          { title: '角色', dataIndex: 'roles', render: (rs: UserDto['roles'], u) => (u.isPlatform ? <Tag color="gold">平台管理员</Tag> : rs.length ? rs.map((r) => <Tag key={r.id}>{r.name}</Tag>) : '—') },
          { title: '项目权限', key: 'projects', width: 120, render: (_, u) => (u.allProjects ? '全部项目' : u.projectIds.length ? `${u.projectIds.length} 个项目` : '无') },
          { title: '描述', dataIndex: 'description', ellipsis: true, render: (v) => v ?? '—' },
          { title: '状态', dataIndex: 'enabled', width: 80, render: (v) => (v ? <Tag color="green">启用</Tag> : <Tag color="red">停用</Tag>) },
          { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (v) => formatDateTime(v) },
          {
            title: '操作', key: 'op', width: 240, render: (_, u) => {
              const self = u.id === me?.id;
              return (
                <Space size={4}>
                  <Can code="userManager:btn_edit">
                    <Button type="link" size="small" onClick={() => open(u)}>编辑</Button>
                    <Tooltip title={self ? '请在“修改密码”中修改自己的密码' : undefined}>
                      <Button type="link" size="small" disabled={self} onClick={() => { setResetting(u); pwForm.resetFields(); }}>重置密码</Button>
                    </Tooltip>
                    {!self && (
                      <Popconfirm title={u.enabled ? `确定停用「${u.name}」？其登录将立即失效` : `确定启用「${u.name}」？`} onConfirm={() => toggle.mutate(u)}>
                        <Button type="link" size="small" danger={u.enabled}>{u.enabled ? '停用' : '启用'}</Button>
                      </Popconfirm>
                    )}
                  </Can>
                  {!self && (
                    <DeleteLink code="userManager:btn_del" title={`确定删除用户「${u.name}」？`} onConfirm={() => remove.mutate(u.id)} />
                  )}
                </Space>
              );
            },
          },
        ]}
      />

      <FormModal title={editing === 'new' ? '新增用户' : '编辑用户'} open={editing !== null} width={720} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="username" label="账号" required rules={[zodRule(f.username)]}>
              <Input disabled={editing !== 'new'} maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}><Form.Item name="name" label="姓名" required rules={[zodRule(f.name)]}><Input maxLength={50} /></Form.Item></Col>
          {editing === 'new' && (
            <Col span={12}>
              <Form.Item name="password" label="初始密码" required dependencies={['username']} rules={[zodRule(passwordForUser(username ?? ''))]} extra="至少 8 个字符，不能与账号相同，不能是常见密码">
                <Input.Password maxLength={128} autoComplete="new-password" />
              </Form.Item>
            </Col>
          )}
          <Col span={12}><Form.Item name="phone" label="电话" rules={[zodRule(f.phone)]}><Input maxLength={32} /></Form.Item></Col>
          <Col span={24}>
            <Form.Item name="roleIds" label="角色">
              <Select mode="multiple" allowClear options={roleOptions} placeholder="选择角色" loading={roles.isLoading} showSearch={{ optionFilterProp: 'label' }} />
            </Form.Item>
          </Col>
          <Col span={8}><Form.Item name="allProjects" label="全部项目" valuePropName="checked"><Switch /></Form.Item></Col>
          <Col span={16}>
            <Form.Item name="projectIds" label="授权项目" extra={allProjects ? '已授权全部项目（含以后新建的项目）' : undefined}>
              <Select mode="multiple" allowClear disabled={Boolean(allProjects)} options={projects.data ?? []} loading={projects.isLoading} placeholder="选择可访问的项目" showSearch={{ optionFilterProp: 'label' }} />
            </Form.Item>
          </Col>
          <Col span={16}><Form.Item name="description" label="描述" rules={[zodRule(f.description)]}><Input maxLength={200} /></Form.Item></Col>
          <Col span={8}><Form.Item name="enabled" label="启用" valuePropName="checked"><Switch disabled={editing !== 'new' && editing?.id === me?.id} /></Form.Item></Col>
        </Row>
      </FormModal>

      <FormModal title={`重置密码：${resetting?.name ?? ''}（${resetting?.username ?? ''}）`} open={resetting !== null} onClose={() => setResetting(null)} form={pwForm} saving={reset.isPending} onSave={(v) => reset.mutate(v.password)} okText="重置">
        <Form.Item name="password" label="新密码" required rules={[zodRule(passwordForUser(resetting?.username ?? ''))]} extra="重置后该用户的全部登录立即失效">
          <Input.Password maxLength={128} autoComplete="new-password" />
        </Form.Item>
        <ConfirmPasswordItem of="password" />
      </FormModal>
    </PageContainer>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Col, Descriptions, Empty, Form, Input, Row, Select, Space, Spin, Tabs, Tree, TreeSelect, type TreeDataNode } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { groupCreate, type GroupTreeNode } from '@kelvin/contracts/admin';
import { PageContainer } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { FormModal, DeleteLink } from '../../../components/form-modal';
import { adminKeys, groupApi } from '../api';
import { AuthorityEditor } from '../components/authority-editor';
import { useTenantScope } from '../components/tenant-scope';

const f = groupCreate.shape;

function flatten(nodes: GroupTreeNode[]): GroupTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

const toTree = (nodes: GroupTreeNode[]): TreeDataNode[] => nodes.map((n) => ({
  key: n.id,
  title: <span data-testid={`role-${n.code}`}>{n.name}<span style={{ color: '#999', marginLeft: 6 }}>{n.memberCount ? `${n.memberCount} 人` : ''}</span></span>,
  children: toTree(n.children),
}));
interface SelectNode { value: number; title: string; children: SelectNode[] }
const toSelect = (nodes: GroupTreeNode[], exclude?: number): SelectNode[] =>
  nodes.filter((n) => n.id !== exclude).map((n) => ({ value: n.id, title: n.name, children: toSelect(n.children, exclude) }));

/** Members and leaders of one role. Leaders are members too (they receive the role's rights). */
function MembersEditor({ roleId, canEdit }: { roleId: number; canEdit: boolean }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const data = useQuery({ queryKey: adminKeys.members(roleId), queryFn: () => groupApi.members(roleId) });
  const [members, setMembers] = useState<number[]>([]);
  const [leaders, setLeaders] = useState<number[]>([]);
  useEffect(() => {
    if (!data.data) return;
    setMembers(data.data.members.map((m) => m.id));
    setLeaders(data.data.leaders.map((m) => m.id));
  }, [data.data]);
  const save = useMutation({
    mutationFn: () => groupApi.setMembers(roleId, { members, leaders }),
    onSuccess: (saved) => {
      message.success('成员已保存');
      qc.setQueryData(adminKeys.members(roleId), saved);
      qc.invalidateQueries({ queryKey: adminKeys.groups });
    },
  });
  if (data.isLoading) return <Spin />;
  const options = (data.data?.candidates ?? []).map((u) => ({ value: u.id, label: `${u.name}（${u.username}）` }));
  return (
    <Form layout="vertical" style={{ maxWidth: 640 }}>
      <Form.Item label="成员" extra="成员获得该角色的全部菜单与按钮权限">
        <Select mode="multiple" value={members} onChange={setMembers} options={options} disabled={!canEdit} showSearch={{ optionFilterProp: 'label' }} placeholder="选择成员" />
      </Form.Item>
      <Form.Item label="负责人" extra="负责人同时是成员">
        <Select mode="multiple" value={leaders} onChange={setLeaders} options={options} disabled={!canEdit} showSearch={{ optionFilterProp: 'label' }} placeholder="选择负责人" />
      </Form.Item>
      {canEdit && <PreventClickButton type="primary" loading={save.isPending} onClick={() => save.mutate()}>保存成员</PreventClickButton>}
    </Form>
  );
}

/** groupManager (角色权限管理): role groups by type as a tree; a role's authority (menus and buttons), members and leaders. */
export default function GroupManager() {
  const qc = useQueryClient();
  const { tenantId, selector } = useTenantScope();
  const canEdit = useCan('groupManager:btn_edit');
  const [groupType, setGroupType] = useState<string>('role');
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ id?: number; parentId?: number | null } | null>(null);
  const [form] = Form.useForm();

  const types = useQuery({ queryKey: adminKeys.groupTypeOptions(tenantId), queryFn: () => groupApi.types(tenantId) });
  const tree = useQuery({ queryKey: adminKeys.groupTree(tenantId, groupType), queryFn: () => groupApi.tree({ groupType, tenantId }) });
  const all = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const role = all.find((r) => r.id === selected) ?? null;
  useEffect(() => setSelected(null), [tenantId, groupType]);
  const refresh = () => qc.invalidateQueries({ queryKey: adminKeys.groups });

  const save = useChange(
    (raw: Record<string, unknown>) => {
      const values = { ...raw, parentId: raw.parentId ?? null }; // a cleared parent means a top-level role
      return editing?.id ? groupApi.update(editing.id, values) : groupApi.create({ ...values, groupType, ...(tenantId !== undefined ? { tenantId } : {}) });
    },
    { done: '保存成功', refresh, then: (g) => { setEditing(null); setSelected(g.id); } },
  );
  const remove = useChange((id: number) => groupApi.remove(id), { done: '删除成功', refresh, then: () => setSelected(null) });

  const open = (e: { id?: number; parentId?: number | null }) => {
    setEditing(e);
    form.resetFields();
    const r = e.id ? all.find((x) => x.id === e.id) : null;
    form.setFieldsValue(r ? { code: r.code, name: r.name, parentId: r.parentId, description: r.description } : { parentId: e.parentId ?? null });
  };

  return (
    <PageContainer title="角色权限管理" extra={selector}>
      <Tabs
        activeKey={groupType}
        onChange={setGroupType}
        items={(types.data ?? []).map((t) => ({ key: t.code, label: t.name }))}
        style={{ marginBottom: -8 }}
      />
      <Row gutter={12}>
        <Col xs={24} md={8} lg={7}>
          <Card
            size="small"
            title="角色"
            extra={<Can code="groupManager:btn_add"><Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => open({ parentId: null })}>新增角色</Button></Can>}
          >
            {tree.isLoading ? <Spin /> : all.length === 0 ? <Empty description="还没有角色" /> : (
              <Tree
                blockNode
                defaultExpandAll
                selectedKeys={selected ? [selected] : []}
                onSelect={(keys) => setSelected(keys.length ? Number(keys[0]) : null)}
                treeData={toTree(tree.data ?? [])}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} md={16} lg={17}>
          <Card size="small" title={role ? `角色：${role.name}` : '角色详情'}>
            {!role ? <Empty description="请在左侧选择一个角色" /> : (
              <>
                <Descriptions size="small" column={3} style={{ marginBottom: 12 }} items={[
                  { key: 'code', label: '编码', children: role.code },
                  { key: 'members', label: '成员', children: `${role.memberCount} 人` },
                  { key: 'desc', label: '描述', children: role.description ?? '—' },
                ]} />
                <Space style={{ marginBottom: 12 }}>
                  <Can code="groupManager:btn_add"><Button onClick={() => open({ parentId: role.id })}>新增下级</Button></Can>
                  <Can code="groupManager:btn_edit"><Button onClick={() => open({ id: role.id })}>编辑</Button></Can>
                  <DeleteLink button code="groupManager:btn_del" title={`确定删除角色「${role.name}」？`} onConfirm={() => remove.mutate(role.id)} />
                </Space>
                <Tabs
                  items={[
                    { key: 'authority', label: '菜单与按钮权限', children: <AuthorityEditor key={role.id} roleId={role.id} tenantId={tenantId} canEdit={canEdit} /> },
                    { key: 'members', label: '成员与负责人', children: <MembersEditor key={role.id} roleId={role.id} canEdit={canEdit} /> },
                  ]}
                />
              </>
            )}
          </Card>
        </Col>
      </Row>

      <FormModal title={editing?.id ? '编辑角色' : '新增角色'} open={editing !== null} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="name" label="角色名称" required rules={[zodRule(f.name)]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="code" label="角色编码" required rules={[zodRule(f.code)]} extra="字母开头，本租户内唯一"><Input maxLength={64} /></Form.Item>
        <Form.Item name="parentId" label="上级角色">
          <TreeSelect allowClear treeDefaultExpandAll placeholder="无（顶层角色）" treeData={toSelect(tree.data ?? [], editing?.id)} />
        </Form.Item>
        <Form.Item name="description" label="描述" rules={[zodRule(f.description)]}><Input.TextArea maxLength={500} rows={3} /></Form.Item>
      </FormModal>
    </PageContainer>
  );
}

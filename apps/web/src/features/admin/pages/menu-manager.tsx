import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Col, Empty, Form, Input, InputNumber, Radio, Row, Select, Space, Spin, Switch, Tag, Tooltip, Tree, type TreeDataNode } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ELEMENT_KINDS, HTTP_METHODS, elementCreate, menuCreate, type ElementDto, type MenuTreeNode } from '@kelvin/contracts/admin';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { FormModal, DeleteLink } from '../../../components/form-modal';
import { adminKeys, elementApi, menuApi } from '../api';

const mf = menuCreate.shape;
const ef = elementCreate.shape;
const KIND_LABELS: Record<string, string> = { view: '查看', btn_add: '新增', btn_edit: '编辑', btn_del: '删除', export: '导出', control: '控制', button: '按钮', uri: '接口' };

function flatten(nodes: MenuTreeNode[]): MenuTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

function filterTree(nodes: MenuTreeNode[], q: string): TreeDataNode[] {
  const out: TreeDataNode[] = [];
  for (const n of nodes) {
    const children = filterTree(n.children, q);
    if (!q || children.length || n.title.includes(q) || n.code.toLowerCase().includes(q.toLowerCase())) {
      out.push({
        key: n.code,
        title: (
          <span>
            {n.title}
            <span style={{ color: '#999', marginLeft: 6, fontSize: 12 }}>{n.code}</span>
            {n.hidden && <Tag style={{ marginLeft: 6 }}>隐藏</Tag>}
          </span>
        ),
        children,
      });
    }
  }
  return out;
}

/** The selected menu's elements (button / API permissions). */
function Elements({ menuCode }: { menuCode: string }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<ElementDto | 'new' | null>(null);
  const [form] = Form.useForm();
  const key = adminKeys.elements(menuCode);
  const save = useChange(
    (v: Record<string, unknown>) => (editing === 'new'
      ? elementApi.create({ ...v, menuCode })
      : elementApi.update((editing as ElementDto).id, { kind: v.kind, name: v.name, uri: v.uri, method: v.method ?? null })),
    { done: '保存成功', refresh: () => qc.invalidateQueries({ queryKey: key }), then: () => setEditing(null) },
  );
  const remove = useChange((id: number) => elementApi.remove(id), { done: '删除成功', refresh: () => qc.invalidateQueries({ queryKey: key }) });
  const open = (e: ElementDto | 'new') => {
    setEditing(e);
    form.resetFields();
    form.setFieldsValue(e === 'new' ? { code: `${menuCode}:`, kind: 'button' } : e);
  };
  return (
    <>
      <DataTable<ElementDto>
        title="按钮与接口权限"
        queryKey={key}
        fetchPage={elementApi.page}
        params={{ menuCode }}
        rowKey="id"
        defaultPageSize={10}
        toolbar={<Can code="menuManager:btn_add"><Button icon={<PlusOutlined />} onClick={() => open('new')}>新增按钮权限</Button></Can>}
        columns={[
          { title: '权限码', dataIndex: 'code' },
          { title: '名称', dataIndex: 'name' },
          { title: '类型', dataIndex: 'kind', width: 90, render: (v) => KIND_LABELS[v] ?? v },
          { title: 'URI', dataIndex: 'uri', render: (v) => v ?? '—' },
          { title: '方法', dataIndex: 'method', width: 80, render: (v) => v ?? '—' },
          {
            title: '操作', key: 'op', width: 140, render: (_, e) => (
              <Space size={4}>
                <Can code="menuManager:btn_edit"><Button type="link" size="small" onClick={() => open(e)}>编辑</Button></Can>
                {e.builtin ? (
                  <Can code="menuManager:btn_del"><Tooltip title="系统内置权限码，接口依赖该编码，不能删除"><Button type="link" size="small" disabled>删除</Button></Tooltip></Can>
                ) : (
                  <DeleteLink code="menuManager:btn_del" title={`确定删除「${e.name}」？已授予的角色将同时失去该权限`} onConfirm={() => remove.mutate(e.id)} />
                )}
              </Space>
            ),
          },
        ]}
      />
      <FormModal title={editing === 'new' ? '新增按钮权限' : '编辑按钮权限'} open={editing !== null} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="code" label="权限码" required rules={[zodRule(ef.code)]}><Input disabled={editing !== 'new'} maxLength={128} /></Form.Item>
        <Form.Item name="name" label="名称" required rules={[zodRule(ef.name)]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="kind" label="类型" required><Select options={ELEMENT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] ?? k }))} /></Form.Item>
        <Form.Item name="uri" label="URI" rules={[zodRule(ef.uri)]}><Input maxLength={200} placeholder="/api/…" /></Form.Item>
        <Form.Item name="method" label="请求方法"><Select allowClear options={HTTP_METHODS.map((m) => ({ value: m, label: m }))} /></Form.Item>
      </FormModal>
    </>
  );
}

/** menuManager (菜单管理): the menu tree; edit title, icon, order, link and type; each menu's elements. */
export default function MenuManager() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan('menuManager:btn_edit');
  const tree = useQuery({ queryKey: adminKeys.menuTree, queryFn: menuApi.tree });
  const all = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const [selected, setSelected] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm();
  const [newForm] = Form.useForm();
  const menu = all.find((m) => m.code === selected) ?? null;
  useEffect(() => {
    if (menu) form.setFieldsValue(menu);
  }, [menu, form]);
  const refresh = () => {
    qc.invalidateQueries({ queryKey: adminKeys.menus });
  };

  const update = useMutation({
    mutationFn: (v: Record<string, unknown>) => menuApi.update(menu!.id, v),
    onSuccess: () => {
      message.success('保存成功（菜单标题与图标在重新进入控制台后更新）');
      refresh();
    },
  });
  const create = useMutation({
    mutationFn: (v: Record<string, unknown>) => menuApi.create(v),
    onSuccess: (m) => {
      message.success('新增成功');
      setCreating(false);
      setSelected(m.code);
      refresh();
    },
  });
  const remove = useChange((id: number) => menuApi.remove(id), { done: '删除成功', refresh, then: () => setSelected(null) });
  const dirOptions = all.filter((m) => m.type === 'dirt').map((m) => ({ value: m.code, label: `${m.title}（${m.code}）` }));

  return (
    <PageContainer title="菜单管理">
      <Row gutter={12}>
        <Col xs={24} md={9} lg={8}>
          <Card
            size="small"
            title="菜单树"
            extra={<Can code="menuManager:btn_add"><Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => { newForm.resetFields(); newForm.setFieldsValue({ type: 'menu', parentCode: menu?.type === 'dirt' ? menu.code : menu?.parentCode }); setCreating(true); }}>新增菜单</Button></Can>}
          >
            <Input.Search allowClear placeholder="按标题或编码查找" onChange={(e) => {
              const q = e.target.value.trim();
              setSearch(q);
              setExpanded(q ? all.filter((m) => m.type === 'dirt').map((m) => m.code) : []);
            }} style={{ marginBottom: 8 }} />
            {tree.isLoading ? <Spin /> : (
              <Tree
                blockNode
                height={600}
                expandedKeys={expanded}
                onExpand={(keys) => setExpanded(keys.map(String))}
                selectedKeys={selected ? [selected] : []}
                onSelect={(keys) => setSelected(keys.length ? String(keys[0]) : null)}
                treeData={filterTree(tree.data ?? [], search)}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} md={15} lg={16}>
          <Space orientation="vertical" style={{ width: '100%' }} size={12}>
            <Card size="small" data-testid="menu-detail" title={menu ? `${menu.title}（${menu.code}）` : '菜单详情'} extra={menu?.builtin ? <Tag color="blue">系统内置</Tag> : menu ? <Tag>自定义</Tag> : null}>
              {!menu ? <Empty description="请在左侧选择一个菜单" /> : (
                <Form form={form} layout="vertical" disabled={!canEdit} onFinish={(v) => update.mutate({ title: v.title, icon: v.icon ?? null, orderNo: v.orderNo, href: v.href ?? null, type: v.type, hidden: v.hidden, ...(menu.builtin ? {} : { parentCode: v.parentCode ?? null }) })}>
                  <Row gutter={16}>
                    <Col span={12}><Form.Item name="title" label="标题" required rules={[zodRule(mf.title)]}><Input maxLength={100} /></Form.Item></Col>
                    <Col span={12}><Form.Item name="icon" label="图标" rules={[zodRule(mf.icon)]} extra="Ant Design 图标名，例如 UserOutlined"><Input maxLength={64} /></Form.Item></Col>
                    <Col span={12}><Form.Item name="orderNo" label="排序" rules={[zodRule(mf.orderNo)]}><InputNumber min={0} max={100000} style={{ width: '100%' }} /></Form.Item></Col>
                    <Col span={12}>
                      <Form.Item name="type" label="类型">
                        <Radio.Group options={[{ value: 'dirt', label: '目录（dirt）' }, { value: 'menu', label: '菜单' }]} />
                      </Form.Item>
                    </Col>
                    <Col span={24}><Form.Item name="href" label="链接" rules={[zodRule(mf.href)]} extra="以 http 开头的链接在新标签页打开"><Input maxLength={500} /></Form.Item></Col>
                    <Col span={12}>
                      <Form.Item name="parentCode" label="上级目录" extra={menu.builtin ? '内置菜单的位置由程序决定' : undefined}>
                        <Select allowClear disabled={menu.builtin} options={dirOptions} showSearch={{ optionFilterProp: 'label' }} />
                      </Form.Item>
                    </Col>
                    <Col span={6}><Form.Item name="hidden" label="隐藏" valuePropName="checked"><Switch /></Form.Item></Col>
                    <Col span={6}><Form.Item label="路由"><span>{menu.path}</span></Form.Item></Col>
                  </Row>
                  <Space>
                    <Can code="menuManager:btn_edit"><PreventClickButton type="primary" loading={update.isPending} onClick={() => form.submit()}>保存</PreventClickButton></Can>
                    {menu.builtin ? (
                      <Can code="menuManager:btn_del"><Tooltip title="系统内置菜单，程序依赖该编码，不能删除；可以隐藏"><Button danger disabled>删除</Button></Tooltip></Can>
                    ) : (
                      <DeleteLink button code="menuManager:btn_del" title={`确定删除菜单「${menu.title}」？其按钮权限和角色授权将一并删除`} onConfirm={() => remove.mutate(menu.id)} />
                    )}
                  </Space>
                </Form>
              )}
            </Card>
            {menu && <Elements key={menu.code} menuCode={menu.code} />}
          </Space>
        </Col>
      </Row>
      <FormModal title="新增菜单" open={creating} onClose={() => setCreating(false)} form={newForm} saving={create.isPending} onSave={(v) => create.mutate(v)}>
        <Form.Item name="code" label="菜单编码" required rules={[zodRule(mf.code)]}><Input maxLength={64} /></Form.Item>
        <Form.Item name="title" label="标题" required rules={[zodRule(mf.title)]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="parentCode" label="上级目录"><Select allowClear options={dirOptions} showSearch={{ optionFilterProp: 'label' }} placeholder="无（顶层目录）" /></Form.Item>
        <Form.Item name="type" label="类型"><Radio.Group options={[{ value: 'dirt', label: '目录（dirt）' }, { value: 'menu', label: '菜单' }]} /></Form.Item>
        <Form.Item name="href" label="链接" rules={[zodRule(mf.href)]}><Input maxLength={500} placeholder="https://…" /></Form.Item>
        <Form.Item name="icon" label="图标" rules={[zodRule(mf.icon)]}><Input maxLength={64} /></Form.Item>
      </FormModal>
    </PageContainer>
  );
}

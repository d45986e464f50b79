import { useState } from 'react';
import { Button, Form, Input, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { groupTypeCreate, type GroupTypeDto } from '@kelvin/contracts/admin';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { Can } from '../../../lib/ui';
import { FormModal, DeleteLink } from '../../../components/form-modal';
import { useSession } from '../../../stores/session';
import { adminKeys, groupTypeApi } from '../api';
import { useTenantScope } from '../components/tenant-scope';

const f = groupTypeCreate.shape;

/** groupTypeManager (角色类型管理): the built-in role / department / free types plus the tenant's own. */
export default function GroupTypeManager() {
  const qc = useQueryClient();
  const isPlatform = useSession((s) => Boolean(s.user?.isPlatform));
  const { tenantId, selector } = useTenantScope();
  const [editing, setEditing] = useState<GroupTypeDto | 'new' | null>(null);
  const [form] = Form.useForm();
  const refresh = () => {
    qc.invalidateQueries({ queryKey: adminKeys.groupTypes });
  };

  const save = useChange(
    (v: Record<string, unknown>) => (editing === 'new'
      ? groupTypeApi.create({ ...v, ...(tenantId !== undefined ? { tenantId } : {}) })
      : groupTypeApi.update((editing as GroupTypeDto).id, { name: v.name, description: v.description })),
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const remove = useChange((id: number) => groupTypeApi.remove(id), { done: '删除成功', refresh });
  const open = (t: GroupTypeDto | 'new') => {
    setEditing(t);
    form.resetFields();
    if (t !== 'new') form.setFieldsValue(t);
  };

  return (
    <PageContainer title="角色类型管理" extra={selector}>
      <DataTable<GroupTypeDto>
        queryKey={adminKeys.groupTypeList(tenantId)}
        fetchPage={groupTypeApi.page}
        params={{ tenantId }}
        rowKey="id"
        filters={[{ name: 'keyword', label: '关键字', placeholder: '类型名称' }]}
        toolbar={<Can code="groupTypeManager:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>新增类型</Button></Can>}
        columns={[
          { title: '名称', dataIndex: 'name', width: 200 },
          { title: '描述', dataIndex: 'description', render: (v) => v ?? '—' },
          { title: '来源', dataIndex: 'builtin', width: 100, render: (v) => (v ? <Tag color="blue">内置</Tag> : <Tag>自定义</Tag>) },
          {
            title: '操作', key: 'op', width: 160, render: (_, t) => (
              <Space size={4}>
                {(!t.builtin || isPlatform) && <Can code="groupTypeManager:btn_edit"><Button type="link" size="small" onClick={() => open(t)}>编辑</Button></Can>}
                {!t.builtin && (
                  <DeleteLink code="groupTypeManager:btn_del" title={`确定删除类型「${t.name}」？`} onConfirm={() => remove.mutate(t.id)} />
                )}
              </Space>
            ),
          },
        ]}
      />
      <FormModal title={editing === 'new' ? '新增角色类型' : '编辑角色类型'} open={editing !== null} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        {editing === 'new' && (
          <Form.Item name="code" label="类型编码" required rules={[zodRule(f.code)]} extra="系统内部标识，保存后不可修改"><Input maxLength={32} /></Form.Item>
        )}
        <Form.Item name="name" label="类型名称" required rules={[zodRule(f.name)]}><Input maxLength={100} /></Form.Item>
        <Form.Item name="description" label="描述" rules={[zodRule(f.description)]}><Input.TextArea rows={3} maxLength={500} /></Form.Item>
      </FormModal>
    </PageContainer>
  );
}

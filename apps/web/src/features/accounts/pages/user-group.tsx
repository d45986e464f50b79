import { useEffect, useState } from 'react';
import { Button, Form, Input, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { accountGroupBody, type AccountGroupDto } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { AccountSelect } from '../components/account-select';
import { formatFen } from '../money';

/** groupName, not name: the list's 组名 filter is the field `name` of the page (a label points at one id) */
type GroupValues = { groupName: string; managerAccountId?: number | null; remark?: string };

/**
 * userGroup (用户组) and groupmanagers (分组管理): groups of accounts billed together (a company renting several rooms),
 * each with a group manager — an account of the group who pays for it. userGroup edits groups and their members;
 * groupmanagers assigns the managers.
 */
export default function UserGroupPage() {
  const { pathname } = useLocation();
  const managers = pathname.split('/').filter(Boolean).at(-1) === 'groupmanagers';
  const code = managers ? 'groupmanagers' : 'userGroup';
  const title = managers ? '分组管理' : '用户组';
  const projectId = useProjectId();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<AccountGroupDto | 'new' | null>(null);
  const [members, setMembers] = useState<AccountGroupDto | null>(null);
  const [form] = Form.useForm<GroupValues>();
  const refresh = () => qc.invalidateQueries({ queryKey: accountKeys.all });
  const save = useChange(
    (v: GroupValues) => {
      const body = { projectId: projectId!, name: v.groupName.trim(), managerAccountId: v.managerAccountId ?? null, remark: v.remark?.trim() || undefined };
      return editing === 'new' ? accountApi.createGroup(body) : accountApi.updateGroup((editing as AccountGroupDto).id, body);
    },
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const remove = useChange((id: number) => accountApi.removeGroups([id]), { done: '删除成功', refresh });
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (editing !== 'new') form.setFieldsValue({ groupName: editing.name, managerAccountId: editing.managerAccountId, remark: editing.remark ?? '' });
  }, [editing, form]);

  if (projectId === null) return <NoProject title={title} />;
  return (
    <PageContainer title={title}>
      <DataTable<AccountGroupDto>
        queryKey={accountKeys.groups(projectId)}
        fetchPage={accountApi.groups}
        params={{ projectId }}
        rowKey="id"
        filters={[{ name: 'name', label: '组名' }]}
        toolbar={!managers && <Can code="userGroup:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button></Can>}
        columns={[
          { title: '组名', dataIndex: 'name', width: 180 },
          { title: '组长（付款账户）', dataIndex: 'managerName', width: 160, render: (v: string | null) => v ?? '未设置' },
          { title: '成员数', dataIndex: 'memberCount', width: 90 },
          { title: '合计余额（元）', dataIndex: 'balanceFen', width: 130, align: 'right', render: (v: number) => formatFen(v) },
          { title: '备注', dataIndex: 'remark', width: 200 },
          { title: '创建时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
          {
            title: '操作', key: 'op', width: 190, fixed: 'right', render: (_, g) => (
              <Space size={4}>
                <Can code={`${code}:btn_edit`}><Button type="link" size="small" onClick={() => setEditing(g)}>{managers ? '设置组长' : '编辑'}</Button></Can>
                {!managers && <Can code="userGroup:btn_edit"><Button type="link" size="small" onClick={() => setMembers(g)}>成员</Button></Can>}
                {!managers && <DeleteLink code="userGroup:btn_del" title={`确定删除用户组「${g.name}」？`} onConfirm={() => remove.mutate(g.id)} />}
              </Space>
            ),
          },
        ]}
      />
      <FormModal<GroupValues> title={editing === 'new' ? '新增用户组' : managers ? '设置组长' : '编辑用户组'} open={!!editing} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="groupName" label="组名" rules={[zodRule(accountGroupBody.shape.name)]}><Input maxLength={60} disabled={managers} /></Form.Item>
        {editing !== 'new' && editing && (
          <Form.Item name="managerAccountId" label="组长（付款账户）" extra="组长须是本组成员；组内的费用由组长账户支付">
            <AccountSelect projectId={projectId} groupId={editing.id} placeholder="从本组成员中选择" />
          </Form.Item>
        )}
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 个字符' }]}><Input.TextArea rows={2} maxLength={200} disabled={managers} /></Form.Item>
      </FormModal>
      <MembersDialog projectId={projectId} group={members} onClose={() => setMembers(null)} />
    </PageContainer>
  );
}

function MembersDialog({ projectId, group, onClose }: { projectId: number; group: AccountGroupDto | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [form] = Form.useForm<{ accountIds: number[] }>();
  const current = useQuery({
    queryKey: [...accountKeys.groups(projectId), 'members', group?.id],
    queryFn: () => accountApi.list({ projectId, groupId: group!.id, pageNo: 1, pageSize: 200 }),
    enabled: !!group,
  });
  useEffect(() => {
    if (group && current.data) form.setFieldsValue({ accountIds: current.data.rows.map((a) => a.id) });
  }, [group, current.data, form]);
  const save = useChange(
    (v: { accountIds: number[] }) => accountApi.setGroupMembers(group!.id, v.accountIds ?? []),
    { done: '保存成功', refresh: () => qc.invalidateQueries({ queryKey: accountKeys.all }), then: () => onClose() },
  );
  return (
    <FormModal<{ accountIds: number[] }> title={`成员：${group?.name ?? ''}`} open={!!group} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={640}>
      <Form.Item name="accountIds" label="成员账户" extra="一个账户只属于一个用户组；移出组长时请先更换组长">
        <AccountSelect projectId={projectId} multiple />
      </Form.Item>
    </FormModal>
  );
}

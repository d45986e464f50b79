import { useState } from 'react';
import { App, Badge, Button, Card, Empty, Form, Input, List, Popconfirm, Space, Spin, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { groupBody, type DeviceGroup, type DeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can, PreventClickButton } from '../../../lib/ui';
import { dmApi, dmKeys } from '../api';
import { DevicePicker } from '../components/device-picker';
import { useDeviceTypes } from '../../devices';

const g = groupBody.shape;

/** devicegroup (设备分组): named sets of a project's devices, used by batch writes, tasks and reports. */
export default function DeviceGroupPage() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [current, setCurrent] = useState<number | null>(null);
  const [editing, setEditing] = useState<DeviceGroup | 'new' | null>(null);
  const [adding, setAdding] = useState(false);
  const [picked, setPicked] = useState<DeviceRow[]>([]);
  const [selectedMembers, setSelectedMembers] = useState<number[]>([]);
  const [form] = Form.useForm();
  const groups = useQuery({ queryKey: dmKeys.groupList(projectId), queryFn: () => dmApi.groups(projectId!), enabled: projectId !== null });
  const group = groups.data?.find((x) => x.id === current) ?? groups.data?.[0] ?? null;
  const types = useDeviceTypes(projectId);
  const refresh = () => qc.invalidateQueries({ queryKey: dmKeys.groups });

  const save = useChange(
    (v: { name: string; remark?: string }) => (editing === 'new' ? dmApi.createGroup({ projectId: projectId!, ...v }) : dmApi.updateGroup((editing as DeviceGroup).id, v)),
    { done: '保存成功', refresh, then: (r) => { setEditing(null); setCurrent(r.id); } },
  );
  const remove = useChange((id: number) => dmApi.removeGroup(id), { done: '删除成功', refresh, then: () => setCurrent(null) });
  const members = useMutation({
    mutationFn: (change: { add?: number[]; remove?: number[] }) => dmApi.groupMembers(group!.id, change),
    onSuccess: (r, change) => {
      message.success(change.add?.length ? `已加入，分组现有 ${r.deviceCount} 台设备` : `已移出，分组现有 ${r.deviceCount} 台设备`);
      setAdding(false);
      setPicked([]);
      setSelectedMembers([]);
      void refresh();
    },
  });

  if (projectId === null) return <NoProject title="设备分组" />;
  const open = (x: DeviceGroup | 'new') => {
    form.resetFields();
    if (x !== 'new') form.setFieldsValue({ name: x.name, remark: x.remark ?? '' });
    setEditing(x);
  };

  return (
    <PageContainer title="设备分组">
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
        <Card size="small" title="分组" style={{ width: 300, flex: 'none' }}
          extra={<Can code="devicegroup:btn_add"><Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => open('new')}>新增分组</Button></Can>}>
          <Spin spinning={groups.isLoading}>
            <List<DeviceGroup>
              dataSource={groups.data ?? []}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有分组" /> }}
              renderItem={(x) => (
                <List.Item data-testid="group-item" onClick={() => setCurrent(x.id)}
                  style={{ cursor: 'pointer', paddingInline: 8, background: x.id === group?.id ? '#e6f4ff' : undefined, borderRadius: 6 }}
                  actions={[
                    <Can key="e" code="devicegroup:btn_edit"><Button type="text" size="small" icon={<EditOutlined />} aria-label="编辑" onClick={(e) => { e.stopPropagation(); open(x); }} /></Can>,
                    <Can key="d" code="devicegroup:btn_del">
                      <Popconfirm title={`确定删除分组「${x.name}」？`} description="分组内的设备不受影响" onConfirm={() => remove.mutate(x.id)} onPopupClick={(e) => e.stopPropagation()}>
                        <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label="删除" onClick={(e) => e.stopPropagation()} />
                      </Popconfirm>
                    </Can>,
                  ]}>
                  <List.Item.Meta title={<span>{x.name} <Typography.Text type="secondary">（{x.deviceCount} 台）</Typography.Text></span>} description={x.remark || undefined} />
                </List.Item>
              )}
            />
          </Spin>
        </Card>
        <div style={{ flex: 1, minWidth: 0 }}>
          {!group ? <Card><Empty description="请先新增一个分组，再把设备加入分组" /></Card> : (
            <DataTable<DeviceRow>
              queryKey={dmKeys.groupMembers(group.id)}
              fetchPage={(q) => dmApi.groupDevices(group.id, q)}
              rowKey="id"
              title={<span data-testid="group-title">{group.name}（创建于 {formatDateTime(group.createdAt, 'YYYY-MM-DD')}）</span>}
              filters={[{ name: 'type', label: '设备类型', kind: 'select', width: 200, options: (types.data ?? []).map((t) => ({ value: t.code, label: t.name })) }]}
              rowSelection={{ selectedRowKeys: selectedMembers, onChange: (k) => setSelectedMembers(k as number[]) }}
              toolbar={(
                <Can code="devicegroup:btn_edit">
                  <Space>
                    <Popconfirm title={`确定把选中的 ${selectedMembers.length} 台设备移出分组？`} disabled={!selectedMembers.length} onConfirm={() => members.mutate({ remove: selectedMembers })}>
                      <Button danger disabled={!selectedMembers.length}>移出分组（{selectedMembers.length}）</Button>
                    </Popconfirm>
                    <Button type="primary" icon={<PlusOutlined />} onClick={() => { setPicked([]); setAdding(true); }}>添加设备</Button>
                  </Space>
                </Can>
              )}
              columns={[
                { title: '设备编号', dataIndex: 'deviceCode', width: 170 },
                { title: '设备名称', dataIndex: 'deviceName', ellipsis: true },
                { title: '类型', dataIndex: 'typeName', width: 150 },
                { title: '位置', dataIndex: 'areaPath', width: 200, render: (v: string) => v || '—' },
                { title: '状态', key: 'online', width: 90, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
                {
                  title: '操作', key: 'op', width: 90, render: (_, d) => (
                    <DeleteLink code="devicegroup:btn_edit" label="移出" title={`确定把「${d.deviceName}」移出分组？`} onConfirm={() => members.mutate({ remove: [d.id] })} />
                  ),
                },
              ]}
            />
          )}
        </div>
      </div>

      <FormModal title={editing === 'new' ? '新增分组' : '编辑分组'} open={editing !== null} onClose={() => setEditing(null)} form={form} name="groupForm" saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="name" label="分组名称" required rules={[zodRule(g.name)]}><Input maxLength={50} /></Form.Item>
        <Form.Item name="remark" label="备注" rules={[zodRule(g.remark)]}><Input.TextArea maxLength={200} rows={2} /></Form.Item>
      </FormModal>

      <AppModal title={`添加设备到「${group?.name ?? ''}」`} width={1100} open={adding} onCancel={() => setAdding(false)} footer={[
        <Button key="c" onClick={() => setAdding(false)}>取消</Button>,
        <PreventClickButton key="ok" type="primary" disabled={!picked.length} loading={members.isPending} onClick={() => members.mutate({ add: picked.map((d) => d.id) })}>
          加入分组（{picked.length} 台）
        </PreventClickButton>,
      ]}>
        <DevicePicker projectId={projectId} selected={picked} onChange={setPicked} queryKey="group" />
      </AppModal>
    </PageContainer>
  );
}

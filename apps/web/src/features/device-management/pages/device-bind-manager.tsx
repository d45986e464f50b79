import { useEffect, useState } from 'react';
import { App, Badge, Button, Empty, Form, Space, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEVICE_TYPES, type BindRecord, type DeviceBindRow } from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { FormModal } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { useAppModal, useCan } from '../../../lib/ui';
import { deviceKeys } from '../../devices';
import { AreaTreeSelect } from '../../projects';
import { dmApi, dmKeys } from '../api';

const BIND_PLACES = ['building', 'floor', 'room'] as const;

/** Buildings → floors → rooms of the project; any of them can be picked (a plant meter sits in a building). */
function AreaPicker({ projectId, value, onChange, id, exclude }: { projectId: number; value?: number; onChange?: (v: number | undefined) => void; id?: string; exclude: number | null }) {
  return (
    <AreaTreeSelect id={id} projectId={projectId} levels={BIND_PLACES} exclude={exclude} value={value} onChange={onChange}
      placeholder="选择楼栋、楼层或房间（可输入名称查找）" data-testid="area-picker" listHeight={360} />
  );
}

/** A device's bind history: who moved it when, from where to where. */
function HistoryDrawer({ projectId, device, onClose }: { projectId: number; device: DeviceBindRow | null; onClose: () => void }) {
  const q = useQuery({
    queryKey: dmKeys.bindHistory(device?.id ?? null),
    queryFn: () => dmApi.bindRecords({ projectId, deviceId: device!.id, pageNo: 1, pageSize: 200 }),
    enabled: device !== null,
  });
  return (
    <AppDrawer title={device ? `绑定历史：${device.deviceName}（${device.deviceCode}）` : '绑定历史'} open={device !== null} onClose={onClose} width={720}>
      <Table<BindRecord> size="small" rowKey="id" loading={q.isFetching} dataSource={q.data?.rows ?? []} pagination={false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有绑定记录" /> }}
        columns={[
          { title: '时间', dataIndex: 'at', width: 160, render: (v: number) => formatDateTime(v) },
          { title: '操作', dataIndex: 'actionLabel', width: 80, render: (v: string) => <Tag>{v}</Tag> },
          { title: '位置（原 → 新）', dataIndex: 'areaPath', render: (v: string | null) => v ?? '—' },
          { title: '说明', dataIndex: 'detail', width: 150 },
          { title: '操作人', dataIndex: 'username', width: 100 },
        ]} />
      {q.data && <Typography.Text type="secondary">共 {q.data.total} 条</Typography.Text>}
    </AppDrawer>
  );
}

/**
 * deviceBindManager (设备绑定管理): the selected project's devices with the room each sits in; 绑定 puts one into a room
 * (from storage, or 改绑 from another room), 解绑 sends it to the project's storage. Each is a bind record (who, when,
 * from, to) through device management — the history drawer shows them per device.
 */
export default function DeviceBindManagerPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const modal = useAppModal();
  const canEdit = useCan('deviceBindManager:btn_edit');
  const [binding, setBinding] = useState<DeviceBindRow | null>(null);
  const [history, setHistory] = useState<DeviceBindRow | null>(null);
  const [form] = Form.useForm<{ areaId: number }>();
  useEffect(() => {
    if (binding) form.resetFields();
  }, [binding, form]);
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: dmKeys.all }), qc.invalidateQueries({ queryKey: deviceKeys.all })]);
  const bind = useMutation({
    mutationFn: (v: { areaId: number }) => dmApi.bind(binding!.id, v.areaId),
    onSuccess: (d) => {
      message.success(`已绑定到 ${d.areaPath}`);
      setBinding(null);
      void refresh();
    },
  });
  const unbind = (d: DeviceBindRow) => modal.confirm({
    title: '解绑设备',
    content: <>把「{d.deviceName}」从 <b>{d.areaPath}</b> 解绑并转入项目库存？设备的历史数据保留。</>,
    okText: '解绑', okButtonProps: { danger: true },
    onOk: async () => {
      await dmApi.unbind(d.id);
      message.success('已解绑，设备已转入库存');
      void refresh();
    },
  });
  if (projectId === null) return <NoProject title="设备绑定管理" />;
  return (
    <PageContainer title="设备绑定管理">
      <DataTable<DeviceBindRow>
        queryKey={dmKeys.binds(projectId)}
        fetchPage={dmApi.bindList}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'bound', label: '绑定状态', kind: 'select', width: 120, options: [{ value: 'bound', label: '已绑定' }, { value: 'unbound', label: '未绑定（库存）' }] },
          { name: 'deviceType', label: '设备类型', kind: 'select', width: 200, options: DEVICE_TYPES.map((t) => ({ value: t.code, label: t.name })) },
          { name: 'keyword', label: '设备', placeholder: '名称或编号', width: 180 },
        ]}
        columns={[
          { title: '设备名称', dataIndex: 'deviceName', width: 180 },
          { title: '设备编号', dataIndex: 'deviceCode', width: 170 },
          { title: '类型', dataIndex: 'typeName', width: 150 },
          { title: '在线', dataIndex: 'online', width: 80, render: (v: boolean) => <Badge status={v ? 'success' : 'default'} text={v ? '在线' : '离线'} /> },
          { title: '所在房间', dataIndex: 'areaPath', width: 220, render: (v: string | null) => (v ? v : <Tag>未绑定（库存）</Tag>) },
          { title: '最近变更', key: 'last', width: 230, render: (_, d) => (d.lastAt ? <>{d.lastAction} · {d.lastBy ?? '—'}<Typography.Text type="secondary"> · {formatDateTime(d.lastAt)}</Typography.Text></> : '—') },
          {
            title: '操作', key: 'op', width: 200, fixed: 'right', render: (_, d) => (
              <Space size={0}>
                {canEdit && <Button type="link" size="small" onClick={() => setBinding(d)}>{d.areaId === null ? '绑定' : '改绑'}</Button>}
                {canEdit && d.areaId !== null && <Button type="link" size="small" danger onClick={() => unbind(d)}>解绑</Button>}
                <Button type="link" size="small" onClick={() => setHistory(d)}>历史</Button>
              </Space>
            ),
          },
        ]}
        scrollX={1300}
      />
      <FormModal<{ areaId: number }> title={binding ? `${binding.areaId === null ? '绑定' : '改绑'}：${binding.deviceName}（${binding.deviceCode}）` : '绑定'} open={binding !== null}
        onClose={() => setBinding(null)} form={form} saving={bind.isPending} onSave={(v) => bind.mutate(v)} okText={binding?.areaId === null ? '绑定' : '改绑'} width={520}>
        {binding?.areaPath && <Typography.Paragraph type="secondary">现在位置：{binding.areaPath}</Typography.Paragraph>}
        <Form.Item name="areaId" label="绑定到" rules={[{ required: true, message: '请选择房间' }]}>
          <AreaPicker projectId={projectId} exclude={binding?.areaId ?? null} />
        </Form.Item>
      </FormModal>
      <HistoryDrawer projectId={projectId} device={history} onClose={() => setHistory(null)} />
    </PageContainer>
  );
}

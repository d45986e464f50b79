import { useState } from 'react';
import { Alert, App, Badge, Button, Form, Input, InputNumber, Popconfirm, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADDRESS_CHANGE_STATUS_LABELS, addressChangeBody, type AddressChangeRow, type AddressChangeStatus, type DeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can, PreventClickButton } from '../../../lib/ui';
import { dmApi, dmKeys } from '../api';
import { DevicePicker } from '../components/device-picker';

const s = addressChangeBody.shape;
const COLORS: Record<AddressChangeStatus, string> = { requested: 'orange', confirmed: 'green', cancelled: 'default' };

/**
 * dodifyDeviceIP_n (修改设备地址): the server a device should report to. The device protocol has no such parameter,
 * so nothing is sent: each device's request is recorded and closed by a person after the change on site.
 */
export default function ModifyDeviceIp() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<DeviceRow[]>([]);
  const [form] = Form.useForm<{ host: string; port: number; remark?: string }>();
  const refresh = () => qc.invalidateQueries({ queryKey: dmKeys.addresses });

  const request = useMutation({
    mutationFn: (v: { host: string; port: number; remark?: string }) => dmApi.requestAddress({ projectId: projectId!, deviceIds: picked.map((d) => d.id), ...v }),
    onSuccess: (r) => {
      message.success(`已登记 ${r.created} 台设备，请在现场改写后确认`);
      setOpen(false);
      void refresh();
    },
  });
  const close = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'confirmed' | 'cancelled' }) => dmApi.closeAddress(id, { status }),
    onSuccess: (_r, v) => {
      message.success(v.status === 'confirmed' ? '已确认' : '已撤销');
      void refresh();
    },
  });

  if (projectId === null) return <NoProject title="修改设备地址" />;

  return (
    <PageContainer title="修改设备地址">
      <Alert type="info" showIcon title="设备协议中没有「服务器地址」参数，系统不会向设备下发新地址"
        description="这里逐台登记要改成的地址；安装人员在现场改写设备后，在本页确认。设备改到其他服务器后将不再向本平台上报，状态列会显示离线。" />
      <DataTable<AddressChangeRow>
        queryKey={dmKeys.addresses}
        fetchPage={dmApi.addressChanges}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'keyword', label: '设备', placeholder: '设备编号或名称' },
          { name: 'status', label: '状态', kind: 'select', width: 170, options: Object.entries(ADDRESS_CHANGE_STATUS_LABELS).map(([value, label]) => ({ value, label })) },
        ]}
        toolbar={<Can code="dodifyDeviceIP_n:control"><Button type="primary" icon={<PlusOutlined />} onClick={() => { form.resetFields(); setPicked([]); setOpen(true); }}>登记修改</Button></Can>}
        scrollX={1450}
        columns={[
          { title: '设备编号', dataIndex: 'deviceCode', width: 160, fixed: 'left' },
          { title: '设备名称', dataIndex: 'deviceName', width: 170, ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 130 },
          { title: '新地址', key: 'addr', width: 200, render: (_, r) => <code>{r.host}:{r.port}</code> },
          { title: '状态', dataIndex: 'status', width: 150, render: (v: AddressChangeStatus, r) => <Tag color={COLORS[v]}>{r.statusLabel}</Tag> },
          { title: '设备当前', key: 'online', width: 200, render: (_, r) => (r.online === null ? <Tag>设备已删除</Tag> : (
            <span><Badge status={r.online ? 'success' : 'default'} text={r.online ? '在线' : '离线'} />{r.lastReportAt ? <span style={{ color: '#999', marginLeft: 6 }}>{formatDateTime(r.lastReportAt, 'MM-DD HH:mm')}</span> : null}</span>
          )) },
          { title: '登记', key: 'req', width: 200, render: (_, r) => <span>{r.requestedBy ?? '—'} · {formatDateTime(r.requestedAt, 'YYYY-MM-DD HH:mm')}</span> },
          { title: '处理', key: 'closed', width: 200, render: (_, r) => (r.closedAt ? <span>{r.closedBy ?? '—'} · {formatDateTime(r.closedAt, 'YYYY-MM-DD HH:mm')}</span> : '—') },
          { title: '备注', dataIndex: 'remark', width: 160, ellipsis: true, render: (v: string | null) => v ?? '—' },
          {
            title: '操作', key: 'op', width: 150, fixed: 'right', render: (_, r) => (r.status !== 'requested' ? null : (
              <Can code="dodifyDeviceIP_n:control">
                <Space size={2}>
                  <Popconfirm title={`确认「${r.deviceName}」已在现场改为 ${r.host}:${r.port}？`} onConfirm={() => close.mutate({ id: r.id, status: 'confirmed' })}>
                    <Button type="link" size="small">确认已改写</Button>
                  </Popconfirm>
                  <Popconfirm title="确定撤销这条登记？" onConfirm={() => close.mutate({ id: r.id, status: 'cancelled' })}>
                    <Button type="link" size="small" danger>撤销</Button>
                  </Popconfirm>
                </Space>
              </Can>
            )),
          },
        ]}
      />

      <AppModal title="登记修改设备地址" width={1100} open={open} onCancel={() => setOpen(false)} footer={[
        <Button key="c" onClick={() => setOpen(false)}>取消</Button>,
        <PreventClickButton key="ok" type="primary" disabled={!picked.length} loading={request.isPending} onClick={() => form.validateFields().then((v) => request.mutate(v), () => undefined)}>
          登记（{picked.length} 台）
        </PreventClickButton>,
      ]}>
        <Form form={form} layout="inline" name="addressForm" style={{ marginBottom: 12, rowGap: 12 }}>
          <Form.Item name="host" label="服务器地址" required rules={[zodRule(s.host)]}><Input placeholder="域名或 IP，如 iot.example.cn" style={{ width: 260 }} /></Form.Item>
          <Form.Item name="port" label="端口" required rules={[zodRule(s.port)]} initialValue={1883}><InputNumber min={1} max={65535} style={{ width: 120 }} /></Form.Item>
          <Form.Item name="remark" label="备注" rules={[zodRule(s.remark)]}><Input maxLength={200} style={{ width: 260 }} /></Form.Item>
        </Form>
        <DevicePicker projectId={projectId} selected={picked} onChange={setPicked} queryKey="address" />
      </AppModal>
    </PageContainer>
  );
}

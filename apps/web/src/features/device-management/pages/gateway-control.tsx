import { useState } from 'react';
import { App, Badge, Button, Popconfirm, Segmented, Space } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { fieldDisplay, type DeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { dmApi, dmKeys } from '../api';
import { QrButton } from '../components/qr-button';
import { deviceApi, deviceKeys } from '../../devices';

type Hub = 'gateway' | 'manager';
const OPERATIONS = [
  { code: 'refresh', label: '刷新', confirm: '请网关立即上报一次数据？' },
  { code: 'syncTime', label: '校时', confirm: '用服务器时间校准网关时钟？' },
  { code: 'reboot', label: '重启', confirm: '确定重启网关？重启期间其下属设备暂时离线' },
] as const;
const online = (d: DeviceRow) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} />;
const field = (d: DeviceRow, code: string) => (d.fields[code] === undefined ? '—' : fieldDisplay(d.deviceType, code, d.fields[code]));

/** The devices registered under one gateway or manager. */
function SubDevices({ hub }: { hub: DeviceRow }) {
  return (
    <DataTable<DeviceRow>
      title={`${hub.deviceName} 的下属设备`}
      queryKey={dmKeys.gatewaySubs(hub.id)}
      fetchPage={(q) => dmApi.subDevices(hub.id, q)}
      rowKey="id"
      defaultPageSize={10}
      columns={[
        { title: '设备编号', dataIndex: 'deviceCode', width: 200 },
        { title: '设备名称', dataIndex: 'deviceName', ellipsis: true },
        { title: '类型', dataIndex: 'typeName', width: 150 },
        { title: '位置', dataIndex: 'areaPath', width: 200, render: (v: string) => v || '—' },
        { title: '状态', key: 'online', width: 90, render: (_, d) => online(d) },
        { title: '最后上报', dataIndex: 'lastReportAt', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
      ]}
    />
  );
}

/** gatewayControl (网关管理): the project's gateways and managers, online state, their sub-devices, and remote operations. */
export default function GatewayControl() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const [hub, setHub] = useState<Hub>('gateway');
  const operate = useMutation({
    mutationFn: ({ d, code }: { d: DeviceRow; code: (typeof OPERATIONS)[number]['code'] }) => deviceApi.operate(d.id, code),
    onSuccess: (r) => (r.status === 'pending' ? message.warning('网关当前不在线，指令将在其上线后下发') : message.success('指令已下发')),
  });
  if (projectId === null) return <NoProject title="网关管理" />;

  return (
    <PageContainer title="网关管理" extra={<Segmented<Hub> value={hub} onChange={setHub} options={[{ value: 'gateway', label: '网关' }, { value: 'manager', label: '管理器' }]} />}>
      <DataTable<DeviceRow>
        queryKey={deviceKeys.list('gateways')}
        fetchPage={deviceApi.list}
        params={{ projectId, deviceType: hub }}
        rowKey="id"
        filters={[
          { name: 'keyword', label: '关键字', placeholder: '编号或名称' },
          { name: 'online', label: '在线', kind: 'select', width: 110, options: [{ value: '1', label: '在线' }, { value: '0', label: '离线' }] },
        ]}
        expandable={{ expandedRowRender: (d) => <SubDevices hub={d} /> }}
        scrollX={1400}
        columns={[
          { title: '编号', dataIndex: 'deviceCode', width: 190 },
          { title: '名称', dataIndex: 'deviceName', width: 170, ellipsis: true },
          { title: '位置', dataIndex: 'areaPath', width: 150, render: (v: string) => v || '项目' },
          { title: '状态', key: 'online', width: 90, render: (_, d) => online(d) },
          { title: hub === 'gateway' ? '在线子设备数' : '管理设备数', key: 'f96', width: 120, render: (_, d) => field(d, 'f96') },
          { title: '运行时长', key: 'f97', width: 120, render: (_, d) => field(d, 'f97') },
          { title: '存储使用率', key: 'f99', width: 110, render: (_, d) => field(d, 'f99') },
          { title: '固件版本', key: 'f98', width: 100, render: (_, d) => field(d, 'f98') },
          { title: '最后上报', dataIndex: 'lastReportAt', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
          {
            title: '操作', key: 'op', width: 250, fixed: 'right', render: (_, d) => (
              <Space size={0}>
                <Can code="gatewayControl:btn_edit">
                  {OPERATIONS.map((o) => (
                    <Popconfirm key={o.code} title={o.confirm} onConfirm={() => operate.mutate({ d, code: o.code })}>
                      <Button type="link" size="small" danger={o.code === 'reboot'}>{o.label}</Button>
                    </Popconfirm>
                  ))}
                </Can>
                <QrButton device={d} />
              </Space>
            ),
          },
        ]}
      />
    </PageContainer>
  );
}

import { Tag, Typography } from 'antd';
import type { FaultDeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { monitoringApi, monitoringKeys, useLiveAlarms } from '../api';
import { FAULT_COLORS, SeverityTag } from '../components/tags';

/** The fault list of a project: devices with an active alarm, exception data not handled, or offline (worst first). */
export function FaultDeviceTable({ projectId, defaultPageSize }: { projectId: number; defaultPageSize?: number }) {
  return (
    <DataTable<FaultDeviceRow>
      queryKey={monitoringKeys.faults(projectId)}
      fetchPage={monitoringApi.faults}
      params={{ projectId }}
      rowKey="deviceId"
      defaultPageSize={defaultPageSize}
      filters={[
        { name: 'fault', label: '故障类型', kind: 'select', width: 140, options: [{ value: 'alarm', label: '告警' }, { value: 'exception', label: '异常数据' }, { value: 'offline', label: '离线' }] },
        { name: 'keyword', label: '设备', placeholder: '设备名称或编号' },
      ]}
      exportUrl="/api/v1/device/faultdevice/export"
      exportCode="projectFaultDeviceList:export"
      columns={[
        { title: '设备', key: 'device', width: 200, render: (_, x) => <span>{x.deviceName}<br /><Typography.Text type="secondary">{x.deviceCode}</Typography.Text></span> },
        { title: '设备类型', dataIndex: 'typeName', width: 150 },
        { title: '位置', dataIndex: 'areaPath', width: 180 },
        { title: '故障', dataIndex: 'faults', width: 200, render: (v: string[]) => v.map((f) => <Tag key={f} color={FAULT_COLORS[f]}>{f}</Tag>) },
        { title: '告警', key: 'alarms', width: 120, render: (_, x) => (x.worstSeverity ? <span><SeverityTag severity={x.worstSeverity} /> {x.activeAlarms} 条</span> : '—') },
        { title: '未处理异常', dataIndex: 'openExceptions', width: 100, render: (v: number) => v || '—' },
        { title: '最后上报', dataIndex: 'lastReportAt', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
      ]}
      scrollX={1150}
    />
  );
}

/** projectFaultDeviceList (故障设备列表). */
export default function FaultDevicesPage() {
  const projectId = useProjectId();
  useLiveAlarms(projectId);
  if (projectId === null) return <NoProject title="故障设备列表" />;
  return <PageContainer title="故障设备列表"><FaultDeviceTable projectId={projectId} /></PageContainer>;
}

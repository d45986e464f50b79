import { Badge } from 'antd';
import { FACTORY_BENCHES, type FactoryDeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { dmApi, dmKeys } from '../api';
import { QrButton } from '../components/qr-button';
import { LastRunCell } from '../components/test-run';

/** testDeviceStatus (测试设备状态): the bench project's devices, online or not, with their latest test and a QR label. */
export default function TestDeviceStatus() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="测试设备状态" />;
  return (
    <PageContainer title="测试设备状态">
      <DataTable<FactoryDeviceRow>
        queryKey={dmKeys.benchDevices('status')}
        fetchPage={dmApi.testDevices}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'keyword', label: '设备', placeholder: '设备编号或名称' },
          { name: 'bench', label: '测试台', kind: 'select', width: 180, options: FACTORY_BENCHES.map((b) => ({ value: b.code, label: b.title })) },
        ]}
        scrollX={1150}
        columns={[
          { title: '设备编号', dataIndex: 'deviceCode', width: 210 },
          { title: '设备名称', dataIndex: 'deviceName', ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 150 },
          { title: '状态', key: 'online', width: 90, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
          { title: '最后上报', dataIndex: 'lastReportAt', width: 165, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
          {
            title: '最近测试', key: 'last', width: 320, render: (_, d) => <LastRunCell d={d} />,
          },
          { title: '标签', key: 'qr', width: 100, render: (_, d) => <QrButton device={d} /> },
        ]}
      />
    </PageContainer>
  );
}

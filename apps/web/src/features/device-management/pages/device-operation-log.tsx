import { useState } from 'react';
import { Select, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { DEVICE_TYPE_BY_CODE, type OperationLogRow } from '@kelvin/contracts';
import { DataTable, type ListParams } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys } from '../../devices';

const RESULT_COLORS: Record<string, string> = {
  成功: 'green', 已执行: 'green', 已下发: 'blue', 等待下发: 'orange', 设备拒绝: 'red', 已过期: 'red', 失败: 'red',
};

/** The query form's date range (atFrom/atTo, as the export takes it) becomes the log API's from/to. */
const fetchLog = ({ atFrom, atTo, ...q }: ListParams) => deviceApi.operationLog({ ...q, from: atFrom, to: atTo } as ListParams);

/** deviceoperationlog (设备操作日志): every command and device change of the project — who, when, what, result; export. */
export default function DeviceOperationLog() {
  const projectId = useProjectId();
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [search, setSearch] = useState('');
  const devices = useQuery({
    queryKey: [...deviceKeys.list('log-search'), projectId, search],
    queryFn: () => deviceApi.list({ projectId: projectId!, keyword: search || undefined, pageNo: 1, pageSize: 20 }),
    enabled: projectId !== null,
  });
  if (projectId === null) return <NoProject title="设备操作日志" />;

  return (
    <PageContainer title="设备操作日志" extra={(
      <Space>
        <Typography.Text>设备</Typography.Text>
        <Select style={{ width: 280 }} allowClear showSearch={{ filterOption: false, onSearch: setSearch }} placeholder="全部设备（输入编号或名称查找）"
          value={deviceId} onChange={setDeviceId} loading={devices.isFetching} data-testid="log-device"
          options={(devices.data?.rows ?? []).map((d) => ({ value: d.id, label: `${d.deviceName}（${d.deviceCode}）` }))} />
      </Space>
    )}>
      <DataTable<OperationLogRow>
        queryKey={deviceKeys.oplogs}
        fetchPage={fetchLog}
        params={{ projectId, deviceId }}
        rowKey="id"
        exportUrl="/api/v1/device/operationlog/export"
        exportCode="deviceoperationlog:export"
        filters={[{ name: 'at', label: '时间', kind: 'dateRange' }]}
        scrollX={1250}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '设备编号', dataIndex: 'deviceCode', width: 200 },
          { title: '设备名称', dataIndex: 'deviceName', width: 180, ellipsis: true },
          { title: '类型', dataIndex: 'deviceType', width: 140, render: (t: string) => DEVICE_TYPE_BY_CODE.get(t)?.name ?? t },
          { title: '操作', dataIndex: 'operation', width: 120 },
          { title: '内容', dataIndex: 'detail', ellipsis: true },
          { title: '结果', dataIndex: 'result', width: 100, render: (v: string) => <Tag color={RESULT_COLORS[v] ?? 'default'}>{v}</Tag> },
          { title: '操作人', dataIndex: 'username', width: 110, render: (v: string | null) => v ?? '系统' },
        ]}
      />
    </PageContainer>
  );
}

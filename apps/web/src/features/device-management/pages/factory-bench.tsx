import { useState } from 'react';
import { App, Badge, Card, InputNumber, List, Popconfirm, Space, Typography } from 'antd';
import { useLocation } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { DEVICE_TYPE_BY_CODE, FACTORY_BENCH_BY_CODE, type FactoryDeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { Can, PreventClickButton } from '../../../lib/ui';
import { dmApi, dmKeys } from '../api';
import { LastRunCell, TestRunCard } from '../components/test-run';

/**
 * testEquipment_n, testBLDCXEquipment, testSolarEquipment, testAirCabinetControllerEquipment: a factory bench. The
 * devices on the bench (the project's devices of the bench's types) are picked and run through the bench's script —
 * real commands, each step passed only when the device acknowledged and reported back.
 */
export default function FactoryBench() {
  const { pathname } = useLocation();
  const bench = FACTORY_BENCH_BY_CODE.get(pathname.split('/').filter(Boolean).at(-1) ?? '') ?? FACTORY_BENCH_BY_CODE.get('testEquipment_n')!;
  const projectId = useProjectId();
  const { message } = App.useApp();
  const [selected, setSelected] = useState<FactoryDeviceRow[]>([]);
  const [timeout, setTimeoutSeconds] = useState(30);
  const [runs, setRuns] = useState<number[]>([]);
  const start = useMutation({
    mutationFn: () => dmApi.startTest({ bench: bench.code, deviceIds: selected.map((d) => d.id), stepTimeoutSeconds: timeout }),
    onSuccess: (r) => {
      message.success(`已开始测试 ${r.length} 台设备`);
      setRuns((old) => [...r.map((x) => x.id), ...old]);
      setSelected([]);
    },
  });

  if (projectId === null) return <NoProject title={bench.title} />;
  const previewType = selected[0] ? DEVICE_TYPE_BY_CODE.get(selected[0].deviceType) : undefined;
  const preview = previewType ? bench.script(previewType) : [];

  return (
    <PageContainer title={bench.title} extra={<Typography.Text type="secondary">{bench.description}</Typography.Text>}>
      <DataTable<FactoryDeviceRow>
        title="测试台上的设备"
        queryKey={dmKeys.benchDevices(bench.code)}
        fetchPage={dmApi.testDevices}
        params={{ projectId, bench: bench.code }}
        rowKey="id"
        defaultPageSize={10}
        filters={[{ name: 'keyword', label: '设备', placeholder: '设备编号或名称' }]}
        rowSelection={{ preserveSelectedRowKeys: true, selectedRowKeys: selected.map((d) => d.id), onChange: (_k, rows) => setSelected(rows.filter(Boolean).slice(0, 50)) }}
        toolbar={(
          <Can code={`${bench.code}:control`}>
            <Space>
              <span>单步时限</span>
              <InputNumber min={5} max={300} value={timeout} onChange={(v) => setTimeoutSeconds(v ?? 30)} suffix="秒" style={{ width: 110 }} />
              <Popconfirm title={`确定开始测试 ${selected.length} 台设备？`} description="测试会向设备下发开关机、模式、设定值等真实指令" disabled={!selected.length} onConfirm={() => start.mutate()}>
                <PreventClickButton type="primary" disabled={!selected.length} loading={start.isPending}>开始测试（{selected.length}）</PreventClickButton>
              </Popconfirm>
            </Space>
          </Can>
        )}
        columns={[
          { title: '设备编号', dataIndex: 'deviceCode', width: 210 },
          { title: '设备名称', dataIndex: 'deviceName', ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 150 },
          { title: '状态', key: 'online', width: 90, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
          {
            title: '最近测试', key: 'last', width: 300, render: (_, d) => <LastRunCell d={d} />,
          },
        ]}
      />

      {previewType && (
        <Card size="small" title={`${previewType.name}的测试步骤（${preview.length} 步）`}>
          <List size="small" dataSource={preview} renderItem={(s, i) => <List.Item>{i + 1}. {s.label}</List.Item>} grid={{ column: 4 }} />
        </Card>
      )}

      {runs.length > 0 && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {runs.map((id) => <TestRunCard key={id} runId={id} onClose={() => setRuns((old) => old.filter((x) => x !== id))} />)}
        </Space>
      )}
    </PageContainer>
  );
}

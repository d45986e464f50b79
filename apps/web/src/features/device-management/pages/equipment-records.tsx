import { Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { FACTORY_BENCHES, FACTORY_RUN_STATUS_LABELS, type FactoryRunView } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { dmApi, dmKeys } from '../api';
import { RUN_COLORS, StepTable } from '../components/test-run';

/** The steps of one record, loaded when its row is expanded. */
function RunSteps({ id }: { id: number }) {
  const run = useQuery({ queryKey: dmKeys.testRun(id), queryFn: () => dmApi.testRun(id) });
  return <Spin spinning={run.isLoading}><StepTable steps={run.data?.steps ?? []} /></Spin>;
}

/** equipmentRecords_n (测试记录): every bench run with its result; expand a row for the steps; export. */
export default function EquipmentRecords() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="测试记录" />;
  return (
    <PageContainer title="测试记录">
      <DataTable<FactoryRunView>
        queryKey={dmKeys.testRuns}
        fetchPage={dmApi.testRuns}
        params={{ projectId }}
        rowKey="id"
        exportUrl="/api/v1/device/factorytest/export"
        exportCode="equipmentRecords_n:export"
        filters={[
          { name: 'keyword', label: '设备', placeholder: '设备编号或名称' },
          { name: 'bench', label: '测试台', kind: 'select', width: 180, options: FACTORY_BENCHES.map((b) => ({ value: b.code, label: b.title })) },
          { name: 'status', label: '结果', kind: 'select', width: 120, options: Object.entries(FACTORY_RUN_STATUS_LABELS).map(([value, label]) => ({ value, label })) },
          { name: 'started', label: '测试日期', kind: 'dateRange' },
        ]}
        expandable={{ expandedRowRender: (r) => <RunSteps id={r.id} /> }}
        scrollX={1200}
        columns={[
          { title: '开始时间', dataIndex: 'startedAt', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '测试台', dataIndex: 'benchTitle', width: 150 },
          { title: '设备编号', dataIndex: 'deviceCode', width: 210 },
          { title: '设备名称', dataIndex: 'deviceName', ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 140 },
          { title: '结果', dataIndex: 'status', width: 90, render: (v: FactoryRunView['status'], r) => <Tag color={RUN_COLORS[v]}>{r.statusLabel}</Tag> },
          { title: '通过/总步数', key: 'n', width: 110, render: (_, r) => <span>{r.passed}/{r.stepCount}{r.failed ? <Typography.Text type="danger">（失败 {r.failed}）</Typography.Text> : null}</span> },
          { title: '用时', key: 'took', width: 90, render: (_, r) => (r.finishedAt ? `${Math.round((r.finishedAt - r.startedAt) / 1000)} 秒` : '进行中') },
          { title: '操作人', dataIndex: 'username', width: 110, render: (v: string | null) => v ?? '—' },
        ]}
      />
    </PageContainer>
  );
}

import { useMemo, useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Select, Segmented, TreeSelect, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { DEPARTMENT_COUNTERS, type DepartmentCompareItem, type DepartmentCompareResult, type DepartmentCounter } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { dayjs } from '../../../lib/time';
import { departmentApi, departmentKeys } from '../api';
import { treeData } from '../components/dialogs';
import { fmt, pct } from '../components/format';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

function CompareChart({ data, kind }: { data: DepartmentCompareResult; kind: 'bar' | 'line' }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 56, right: 24, top: 36, bottom: 28 },
    xAxis: { type: 'category', data: data.buckets },
    yAxis: { type: 'value', name: data.unit },
    series: data.items.map((i) => ({ name: i.name, type: kind, barMaxWidth: 18, showSymbol: false, connectNulls: false, data: i.values })),
  }), [data, kind]);
  return <div ref={ref} style={{ height: 300, width: '100%' }} data-testid="compare-chart" data-series={data.items.length} />;
}

type Values = { departmentIds: number[]; grain: 'day' | 'month'; month: Dayjs; year: Dayjs; counter: DepartmentCounter };

/**
 * departmentEnergyCompare (部门能耗对比): 2–6 departments side by side over the days of a month or the months of a year
 * (bars or lines), each with its total, the period before (环比) and the same period a year earlier (同比); export.
 */
export default function DepartmentComparePage() {
  const projectId = useProjectId();
  const [form] = Form.useForm<Values>();
  const [kind, setKind] = useState<'bar' | 'line'>('bar');
  const [applied, setApplied] = useState<Record<string, string | number> | null>(null);
  const tree = useQuery({ queryKey: departmentKeys.tree(projectId), queryFn: () => departmentApi.tree(projectId!), enabled: projectId !== null });
  const grain = Form.useWatch('grain', form) ?? 'day';
  const initial = useMemo(() => ({ departmentIds: [], grain: 'day' as const, month: dayjs().startOf('month'), year: dayjs().startOf('year'), counter: 'f70' as const }), []);
  if (projectId === null) return <NoProject title="部门能耗对比" />;
  const run = (v: Values) => setApplied({
    departmentIds: v.departmentIds.join(','), grain: v.grain, counter: v.counter,
    ...(v.grain === 'day' ? { month: v.month.format('YYYY-MM') } : { year: v.year.year() }),
  });
  const unit = DEPARTMENT_COUNTERS[(applied?.counter as DepartmentCounter) ?? 'f70'].unit;
  return (
    <PageContainer title="部门能耗对比">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Form form={form} layout="inline" initialValues={initial} onFinish={run} style={{ rowGap: 12 }}>
          <Form.Item name="departmentIds" label="部门" rules={[{ validator: async (_r, v: number[] | undefined) => { if (!v || v.length < 2 || v.length > 6) throw new Error('请选择 2～6 个部门'); } }]}>
            <TreeSelect data-testid="compare-departments" multiple treeCheckable={false} treeDefaultExpandAll allowClear placeholder="选择 2～6 个部门" style={{ width: 320 }}
              treeData={treeData(tree.data ?? [])} maxTagCount={6} showSearch treeNodeFilterProp="title" />
          </Form.Item>
          <Form.Item name="grain" label="统计粒度"><Select style={{ width: 100 }} options={[{ value: 'day', label: '按日' }, { value: 'month', label: '按月' }]} /></Form.Item>
          {grain === 'day'
            ? <Form.Item name="month" label="月份"><DatePicker picker="month" allowClear={false} /></Form.Item>
            : <Form.Item name="year" label="年份"><DatePicker picker="year" allowClear={false} /></Form.Item>}
          <Form.Item name="counter" label="能源类型">
            <Select style={{ width: 140 }} options={Object.entries(DEPARTMENT_COUNTERS).map(([value, c]) => ({ value, label: `${c.label}（${c.unit}）` }))} />
          </Form.Item>
          <Form.Item><Button type="primary" htmlType="submit">对比</Button></Form.Item>
        </Form>
      </Card>
      {!applied ? (
        <Card size="small"><Empty description={tree.data && tree.data.length ? '请选择 2～6 个部门后点「对比」' : '还没有部门，请在「部门能耗总览」新增部门'} /></Card>
      ) : (
        <DataTable<DepartmentCompareItem, DepartmentCompareResult & { total: number; rows: DepartmentCompareItem[] }>
          queryKey={departmentKeys.compare(applied)}
          fetchPage={async () => {
            const r = await departmentApi.compare({ projectId, ...(applied as unknown as Omit<Parameters<typeof departmentApi.compare>[0], 'projectId'>) });
            return { ...r, total: r.items.length, rows: r.items };
          }}
          params={{ projectId, ...applied }}
          rowKey="departmentId"
          exportUrl={departmentApi.compareExportUrl}
          exportCode="departmentEnergyCompare:export"
          toolbar={<Segmented value={kind} onChange={(v) => setKind(v as 'bar' | 'line')} options={[{ value: 'bar', label: '柱状图' }, { value: 'line', label: '折线图' }]} />}
          header={(data) => data && (
            <>
              <CompareChart data={data} kind={kind} />
              {data.notes.map((n) => <Typography.Paragraph key={n} type="secondary" style={{ margin: '4px 0', fontSize: 12 }}>{n}</Typography.Paragraph>)}
            </>
          )}
          columns={[
            { title: '部门', dataIndex: 'name', width: 160 },
            { title: `合计（${unit}）`, dataIndex: 'total', width: 120, align: 'right', render: (v: number | null) => <b>{fmt(v)}</b> },
            { title: `上期（${unit}）`, dataIndex: 'previous', width: 120, align: 'right', render: fmt },
            { title: '环比', dataIndex: 'mom', width: 90, align: 'right', render: pct },
            { title: `去年同期（${unit}）`, dataIndex: 'lastYear', width: 130, align: 'right', render: fmt },
            { title: '同比', dataIndex: 'yoy', width: 90, align: 'right', render: pct },
            { title: `人均（${unit}/人）`, dataIndex: 'perPerson', width: 120, align: 'right', render: fmt },
            { title: `单位面积（${unit}/m²）`, dataIndex: 'perArea', width: 140, align: 'right', render: fmt },
          ]}
        />
      )}
    </PageContainer>
  );
}

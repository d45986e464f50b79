import { useMemo, useState } from 'react';
import { Table, Typography } from 'antd';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { DepartmentEnergyPage, DepartmentEnergyRow } from '@kelvin/contracts';
import { DataTable, type ListParams } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { departmentApi, departmentKeys } from '../api';
import { fmt } from '../components/format';
import { periodFilters } from '../components/period-filters';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** The top-level departments stacked per day / month: together they are the project's departments' use. */
function EnergyChart({ data }: { data: DepartmentEnergyPage }) {
  const tops = data.rows.filter((r) => r.depth === 0);
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 56, right: 24, top: 36, bottom: 28 },
    xAxis: { type: 'category', data: data.buckets },
    yAxis: { type: 'value', name: data.unit },
    series: [
      ...tops.map((r) => ({ name: r.name, type: 'bar', stack: 'dept', barMaxWidth: 24, data: r.values })),
      { name: '合计', type: 'line', showSymbol: false, data: data.totals.values },
    ],
  }), [data]);
  return <div ref={ref} style={{ height: 280, width: '100%' }} data-testid="statistic-chart" data-points={data.buckets.length} />;
}

/**
 * departmentStaticEnergy (部门能耗统计): every department × every day of a month (or month of a year), its total, per
 * person and per m², the top-level departments' sum as the total row; chart and .xlsx export of the same figures.
 */
export default function DepartmentStatisticPage() {
  const projectId = useProjectId();
  const [buckets, setBuckets] = useState<string[]>([]);
  const [unit, setUnit] = useState('kWh');
  const filters = useMemo(periodFilters, []);
  const columns = useMemo(() => [
    {
      title: '部门', key: 'path', dataIndex: 'path', width: 200, fixed: 'left' as const,
      render: (_: unknown, r: DepartmentEnergyRow) => <span style={{ paddingLeft: r.depth * 16 }}>{r.depth ? '└ ' : ''}{r.name}</span>,
    },
    { title: '人数', key: 'headcount', dataIndex: 'headcount', width: 70, align: 'right' as const },
    { title: '面积（m²）', key: 'area', dataIndex: 'area', width: 100, align: 'right' as const },
    ...buckets.map((b, i) => ({ title: b, key: `b${i}`, width: 86, align: 'right' as const, render: (_: unknown, r: DepartmentEnergyRow) => fmt(r.values[i]) })),
    { title: `合计（${unit}）`, key: 'total', width: 120, align: 'right' as const, fixed: 'right' as const, render: (_: unknown, r: DepartmentEnergyRow) => <b>{fmt(r.total)}</b> },
    { title: `人均（${unit}/人）`, key: 'perPerson', width: 120, align: 'right' as const, render: (_: unknown, r: DepartmentEnergyRow) => fmt(r.perPerson) },
    { title: `单位面积（${unit}/m²）`, key: 'perArea', width: 140, align: 'right' as const, render: (_: unknown, r: DepartmentEnergyRow) => fmt(r.perArea) },
  ], [buckets, unit]);
  if (projectId === null) return <NoProject title="部门能耗统计" />;
  const fetchPage = async (p: ListParams) => {
    const page = await departmentApi.energy(p);
    setBuckets(page.buckets);
    setUnit(page.unit);
    return page;
  };
  return (
    <PageContainer title="部门能耗统计">
      <DataTable<DepartmentEnergyRow, DepartmentEnergyPage>
        queryKey={departmentKeys.energy(projectId)}
        fetchPage={fetchPage}
        params={{ projectId }}
        rowKey="departmentId"
        filters={filters}
        exportUrl={departmentApi.energyExportUrl}
        exportCode="departmentStaticEnergy:export"
        defaultPageSize={50}
        columns={columns}
        header={(data) => data && (
          <>
            {data.total > 0 ? <EnergyChart data={data} /> : null}
            {data.notes.map((n) => <Typography.Paragraph key={n} type="secondary" style={{ margin: '4px 0', fontSize: 12 }}>{n}</Typography.Paragraph>)}
          </>
        )}
        tableSummary={(data, shown) => (data && data.total > 0 ? (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="statistic-total-row" style={{ fontWeight: 600, background: '#fafafa' }}>
              {shown.map((key, i) => (
                <Table.Summary.Cell key={key} index={i} align={i === 0 ? 'left' : 'right'}>
                  {i === 0 ? '合计（一级部门之和）' : key === 'total' ? fmt(data.totals.total) : key.startsWith('b') ? fmt(data.totals.values[Number(key.slice(1))]) : ''}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null)}
      />
    </PageContainer>
  );
}

import { useMemo } from 'react';
import { Alert, Button, Table, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  PERIOD_PRESETS, formatReportValue, periodRange, reportMenuCode,
  type PeriodPreset, type ReportColumn, type ReportDef, type ReportPage, type ReportRow,
} from '@kelvin/contracts';
import { DataTable, type FilterField } from '../../../components/data-table';
import { dayjs } from '../../../lib/time';
import { dmApi, dmKeys } from '../../device-management';
import { useDeviceTypes } from '../../devices';
import { BUILDINGS_AND_FLOORS, buildingFloorOptions, useAreaTree } from '../../projects';
import { reportApi, reportKeys, type ReportParams } from '../api';
import { columnTitle, isNumeric } from './columns';
import { ReportChart } from './report-chart';
import { printReport } from './print-report';

const PRESETS = (Object.keys(PERIOD_PRESETS) as PeriodPreset[]).filter((p): p is Exclude<PeriodPreset, 'custom'> => p !== 'custom')
  .map((p) => {
    const [from, to] = periodRange(p);
    return { label: PERIOD_PRESETS[p], value: [dayjs(from), dayjs(to - 1)] as [ReturnType<typeof dayjs>, ReturnType<typeof dayjs>] };
  });

const numeric = (c: ReportColumn) => isNumeric(c.format);

/** The registry's filters as the query form's fields, with the project's buildings, device types and groups as options. */
function useFilterFields(def: ReportDef, projectId: number): FilterField[] {
  const needs = (kind: string) => def.filters.some((f) => f.kind === kind);
  const tree = useAreaTree(needs('building') ? projectId : null, BUILDINGS_AND_FLOORS);
  const types = useDeviceTypes(projectId, { enabled: needs('deviceType') });
  const groups = useQuery({ queryKey: dmKeys.groupList(projectId), queryFn: () => dmApi.groups(projectId), enabled: needs('group') });
  return useMemo(() => def.filters.map((f): FilterField => {
    const base = { name: f.name, label: f.label, placeholder: f.placeholder, required: f.required };
    switch (f.kind) {
      case 'period': {
        const [from, to] = periodRange((f.initial ?? 'month') as Exclude<PeriodPreset, 'custom'>);
        return { ...base, kind: 'dateRange', presets: PRESETS, initial: [dayjs(from), dayjs(to - 1)], rangeNames: ['from', 'to'], rangeFormat: 'msExclusive' };
      }
      case 'month': return { ...base, kind: 'month', initial: dayjs() };
      case 'year': return { ...base, kind: 'year', initial: dayjs(), width: 110 };
      case 'building': return { ...base, kind: 'select', options: buildingFloorOptions(tree.data), width: 200 };
      case 'deviceType': return { ...base, kind: 'select', options: (types.data ?? []).map((t) => ({ value: t.code, label: t.name })), width: 180 };
      case 'group': return { ...base, kind: 'select', options: (groups.data ?? []).map((g) => ({ value: g.id, label: g.name })), initial: groups.data?.[0]?.id, width: 180 };
      case 'keyword': return { ...base, kind: 'text', width: 200 };
      default: return { ...base, kind: 'select', options: f.options, initial: f.initial, required: f.required || f.initial !== undefined, width: f.kind === 'counter' ? 190 : 140 };
    }
  }), [def, tree.data, types.data, groups.data]);
}

/** The total row: the sums of the `total` columns over everything selected, in the table's own columns. */
function TotalRow({ data, shown }: { data: ReportPage | undefined; shown: ReportColumn[] }) {
  if (!data || !Object.keys(data.totals).length || !data.total) return null;
  return (
    <Table.Summary fixed>
      <Table.Summary.Row data-testid="report-total-row" style={{ fontWeight: 600, background: '#fafafa' }}>
        {shown.map((c, i) => (
          <Table.Summary.Cell key={c.key} index={i} align={numeric(c) ? 'right' : 'left'}>
            {i === 0 ? `合计（${data.total} 条）` : c.key in data.totals ? formatReportValue(data.totals[c.key], c.format) : ''}
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
}

/**
 * One report of the registry: the query form from its filters, its chart over everything selected, the server's
 * page with sorting, a total row, 导出 (the whole selection as .xlsx) and 打印 (A4 landscape, header and page numbers).
 */
export function ReportView({ def, projectId, projectName }: { def: ReportDef; projectId: number; projectName: string }) {
  const filters = useFilterFields(def, projectId);
  const menuCode = reportMenuCode(def);
  const ready = !def.filters.some((f) => f.kind === 'group') || filters.some((f) => f.name === 'groupId' && f.initial !== undefined);
  const columns = useMemo(() => def.columns.map((c) => ({
    key: c.key, dataIndex: c.key, title: columnTitle(c), width: c.width ?? 120, align: numeric(c) ? ('right' as const) : undefined,
    sorter: c.sortable ? true : undefined, ellipsis: c.format === 'text' && (c.width ?? 0) >= 200,
    render: (v: ReportRow[string]) => formatReportValue(v, c.format),
  })), [def]);
  if (!ready) return <Typography.Text type="secondary">请先在「分组管理」中建立设备分组。</Typography.Text>;
  return (
    <DataTable<ReportRow, ReportPage>
      key={`${def.code}:${filters.map((f) => String(f.initial ?? '')).join('|')}`}
      queryKey={[...reportKeys.page(def.code), projectId]}
      fetchPage={(params) => reportApi.page(def.code, params)}
      params={{ projectId }}
      rowKey={(r) => String(r[def.rowKey])}
      filters={filters}
      columns={columns}
      exportUrl={reportApi.exportUrl(def.code)}
      exportCode={`${menuCode}:export`}
      toolbar={(params: ReportParams) => (
        <Button icon={<PrinterOutlined />} onClick={() => void printReport(def, projectName, params)} data-testid="print-button">打印</Button>
      )}
      summary={(data) => data && <Typography.Text type="secondary" data-testid="report-applied">{data.applied.map((a) => `${a.label}：${a.value}`).join('　')}</Typography.Text>}
      header={(data) => (
        <>
          {data?.notes.map((n) => <Alert key={n} type="info" showIcon message={n} style={{ marginBottom: 8 }} />)}
          {def.chart && data?.chart && data.chart.x.length > 0 && <ReportChart def={def.chart} data={data.chart} />}
        </>
      )}
      tableSummary={(data, shownKeys) => <TotalRow data={data} shown={def.columns.filter((c) => shownKeys.includes(c.key))} />}
    />
  );
}

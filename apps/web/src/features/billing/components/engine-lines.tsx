import type { ReactNode } from 'react';
import { Space, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { BILLING_METHODS, DEVICE_TYPES, METHOD_FIELDS, type BillLineRow } from '@kelvin/contracts';
import { DataTable, type ListParams } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/time';
import { formatFen } from '../../accounts';
import { ENGINE_EXPORTS, type MoneyPage } from '../api';

const BILLED_FIELDS = new Set(Object.values(METHOD_FIELDS).flatMap((m) => m.fields));
/** the registry's name of a billed counter (f20 低速运行时间, f30 累计通阀时间 …: one definition shared by every type) */
const FIELD_LABELS = new Map(DEVICE_TYPES.flatMap((t) => t.fields).filter((f) => BILLED_FIELDS.has(f.code)).map((f) => [f.code, f.label] as const));
export const readingFieldLabel = (code: string) => FIELD_LABELS.get(code) ?? code;

const LINE_KINDS: Record<BillLineRow['method'], string> = { ...BILLING_METHODS, overtime: '超时费', baseFee: '基础费' };
export const lineMethodLabel = (m: BillLineRow['method']) => LINE_KINDS[m] ?? m;

/** a quantity as the server rounded it (≤ 6 decimals), without trailing zeros */
export function formatQuantity(q: number | null | undefined, unit?: string): string {
  if (q === null || q === undefined || !Number.isFinite(q)) return '—';
  const text = String(Number(q.toFixed(6)));
  return unit ? `${text} ${unit}` : text;
}

export const amountCell = (fen: number) => formatFen(fen);
export const periodText = (from: number, until: number) => `${formatDateTime(from, 'YYYY-MM-DD HH:mm')} ～ ${formatDateTime(until, 'YYYY-MM-DD HH:mm')}`;

/** The readings a line came from: 起始读数（时间）→ 结束读数（时间） per counter. */
export function LineReadings({ line }: { line: BillLineRow }) {
  if (!line.readings.length) return <Typography.Text type="secondary">—</Typography.Text>;
  // a share line may gather several of the account's devices: say which reading is whose
  const several = new Set(line.readings.map((r) => r.deviceId)).size > 1;
  return (
    <Space orientation="vertical" size={2} data-testid="line-readings">
      {line.readings.map((r) => (
        <span key={`${r.deviceId}-${r.fieldCode}`} style={{ whiteSpace: 'nowrap' }}>
          <Typography.Text type="secondary">{several ? `设备 #${r.deviceId} ` : ''}{readingFieldLabel(r.fieldCode)}：</Typography.Text>
          {r.startValue ?? '—'}<Typography.Text type="secondary" style={{ fontSize: 12 }}>（{r.startTs ? formatDateTime(r.startTs, 'MM-DD HH:mm') : '无'}）</Typography.Text>
          {' → '}
          {r.endValue ?? '—'}<Typography.Text type="secondary" style={{ fontSize: 12 }}>（{r.endTs ? formatDateTime(r.endTs, 'MM-DD HH:mm') : '无'}）</Typography.Text>
        </span>
      ))}
    </Space>
  );
}

type LineColumn = NonNullable<TableProps<BillLineRow>['columns']>[number];
export type LineColumnKey = 'account' | 'device' | 'method' | 'readings' | 'quantity' | 'unitPrice' | 'amount' | 'period' | 'posted';

/** The columns of a priced line; a screen picks the ones it needs (a device's drawer leaves 设备 out …). */
export function lineColumns(keys: LineColumnKey[]): LineColumn[] {
  const all: Record<LineColumnKey, LineColumn> = {
    account: { title: '账户', dataIndex: 'accountName', key: 'account', width: 130 },
    device: { title: '设备', dataIndex: 'deviceName', key: 'device', width: 150, render: (v: string | null) => v ?? '—' },
    method: {
      title: '计费项目', key: 'method', width: 170, render: (_, l) => (
        <span>{l.label || lineMethodLabel(l.method)}{l.label && l.label !== lineMethodLabel(l.method) ? <><br /><Typography.Text type="secondary" style={{ fontSize: 12 }}>{lineMethodLabel(l.method)}</Typography.Text></> : null}</span>
      ),
    },
    readings: { title: '起始读数（时间）→ 结束读数（时间）', key: 'readings', width: 330, render: (_, l) => <LineReadings line={l} /> },
    quantity: { title: '用量', key: 'quantity', width: 120, align: 'right', render: (_, l) => formatQuantity(l.quantity, l.unit) },
    unitPrice: { title: '单价（元）', dataIndex: 'unitPrice', key: 'unitPrice', width: 100, align: 'right' },
    amount: { title: '金额（元）', dataIndex: 'amountFen', key: 'amount', width: 110, align: 'right', render: amountCell },
    period: { title: '计费周期', key: 'period', width: 250, render: (_, l) => periodText(l.periodFrom, l.periodUntil) },
    posted: {
      title: '入账', key: 'posted', width: 110, render: (_, l) => (l.billId ? <Tag color="blue">账单 #{l.billId}</Tag> : l.entryId ? <Tag color="green">已扣费</Tag> : <Tag>未入账</Tag>),
    },
  };
  return keys.map((k) => all[k]);
}

/** 合计 of a money list (the server's total of every matching row, not only this page). */
export function TotalOf({ data, label = '合计金额' }: { data: { total: number; totalFen: number } | undefined; label?: string }) {
  if (!data) return null;
  return (
    <Typography.Text data-testid="list-total">
      {label}：<Typography.Text strong>{formatFen(data.totalFen)}</Typography.Text> 元
    </Typography.Text>
  );
}

/**
 * The lines of a run, a bill or a device, with the readings each came from: one server-paginated table with its total
 * and 导出 (the lines export takes the same filters).
 */
export function LinesTable({ queryKey, params, fetchPage, columns, exportCode, title, empty }: {
  queryKey: readonly unknown[];
  params: Record<string, string | number | undefined>;
  fetchPage: (p: ListParams) => Promise<MoneyPage<BillLineRow>>;
  columns: LineColumnKey[];
  /** the element that allows 导出 of the lines (absent: no export) */
  exportCode?: string;
  title?: ReactNode;
  empty?: ReactNode;
}) {
  return (
    <DataTable<BillLineRow, MoneyPage<BillLineRow>>
      title={title}
      queryKey={queryKey}
      fetchPage={fetchPage}
      params={params}
      rowKey="id"
      columns={lineColumns(columns)}
      summary={(d) => (d && d.total === 0 && empty ? empty : <TotalOf data={d} />)}
      exportUrl={exportCode ? ENGINE_EXPORTS.lines : undefined}
      exportCode={exportCode}
      defaultPageSize={10}
    />
  );
}

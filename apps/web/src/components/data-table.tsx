import { useLayoutEffect, useMemo, useRef, useState, type Key, type ReactNode, type RefObject } from 'react';
import { Button, Card, Checkbox, DatePicker, Empty, Form, Input, Pagination, Popover, Select, Space, Spin, Table, Tooltip, type TableProps } from 'antd';
import { DownloadOutlined, ReloadOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@kelvin/contracts';
import type { Dayjs } from 'dayjs';
import { download } from '../lib/http';
import { formatDateTime } from '../lib/time';
import { useCan, useIsMobile } from '../lib/ui';

/**
 * THE list component (one table component for the whole console): query form on top, a toolbar with the page's
 * actions (新增 …) and 导出, a server-paginated table with 共 N 条. Filters are sent as query parameters.
 * Wide tables scroll sideways with every column reachable; 列设置 hides columns (remembered per screen); on a phone
 * each row is a card of label / value pairs.
 */
export interface FilterField {
  name: string;
  label: string;
  kind?: 'text' | 'select' | 'dateRange' | 'month' | 'year';
  options?: { label: string; value: string | number }[];
  /** the value when the screen opens (and after 重置) */
  initial?: unknown;
  /** a select that must keep a value (no clear button) */
  required?: boolean;
  /** dateRange: quick ranges (今日/本周/本月/本年 …) */
  presets?: { label: string; value: [Dayjs, Dayjs] }[];
  placeholder?: string;
  width?: number;
  /** dateRange only: the two parameter names (default `${name}From` / `${name}To`) and their form (default ms epoch) */
  rangeNames?: [from: string, to: string];
  /** 'ms' (default): the first and the last ms of the days; 'msExclusive': [start of the first day, start of the day after the last) */
  rangeFormat?: 'ms' | 'msExclusive' | 'date';
}

export type ListParams = Record<string, string | number | undefined> & { pageNo: number; pageSize: number };

export interface DataTableProps<T, P extends Page<T> = Page<T>> {
  /** query key prefix; the filters and page are appended (invalidate it after a change) */
  queryKey: readonly unknown[];
  fetchPage: (params: ListParams) => Promise<P>;
  columns: TableProps<T>['columns'];
  rowKey: keyof T & string | ((row: T) => Key);
  filters?: FilterField[];
  /** buttons on the toolbar's right, before 导出 (a function gets the parameters of what is shown: fixed, filters, sort) */
  toolbar?: ReactNode | ((params: Record<string, string | number | undefined>) => ReactNode);
  title?: ReactNode;
  /** export endpoint (GET, same filters) and the element code that allows it */
  exportUrl?: string;
  exportCode?: string;
  /** fixed parameters (e.g. the selected projectId); a change reloads */
  params?: Record<string, string | number | undefined>;
  rowSelection?: TableProps<T>['rowSelection'];
  expandable?: TableProps<T>['expandable'];
  /** row events (a row that opens its detail on click) */
  onRow?: TableProps<T>['onRow'];
  scrollX?: number;
  defaultPageSize?: number;
  /** figures of the whole answer (a list that also answers its total amount …), shown on the toolbar's left */
  summary?: (data: P | undefined) => ReactNode;
  /** content between the toolbar and the table (a chart of the whole answer, notes) */
  header?: (data: P | undefined) => ReactNode;
  /** a fixed last row of the table (totals of the whole answer), given the keys of the columns shown */
  tableSummary?: (data: P | undefined, shownKeys: string[]) => ReactNode;
}

const PAGE_SIZES = [10, 20, 50, 100];

/** Where the table header sticks: right under the sticky query form (its height plus its own, negative, top). */
function useHeaderOffset(queryRef: RefObject<HTMLDivElement | null>): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const el = queryRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOffset(el.offsetHeight + (parseFloat(getComputedStyle(el).top) || 0));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [queryRef]);
  return offset;
}
/** width assumed for a column that declares none, when summing the table's scroll width */
const FLEX_COLUMN_WIDTH = 140;

type Column<T> = NonNullable<TableProps<T>['columns']>[number];
/** the parts of a column a card needs (antd's column type is a union without them on every member) */
type DataColumn<T> = { key?: Key; title?: unknown; dataIndex?: string | string[]; render?: (value: unknown, row: T, index: number) => ReactNode };

export function columnKey<T>(c: Column<T> | DataColumn<T>, i: number): string {
  const di = (c as DataColumn<T>).dataIndex;
  return String(c.key ?? (Array.isArray(di) ? di.join('.') : di) ?? i);
}

/** 修改: who changed the row last and when — the column of every list of edited settings (programs, tasks, rules, plans …). */
export function updatedColumn<T extends { updatedBy: string | null; updatedAt: number }>(width = 150): Column<T> {
  return { title: '修改', key: 'upd', width, render: (_, r) => <span>{r.updatedBy ?? ''} {formatDateTime(r.updatedAt, 'MM-DD HH:mm')}</span> };
}

/** The columns a user hid on a screen, kept in this browser (a preference, not a session value). */
function useHiddenColumns(screen: string) {
  const storageKey = `kelvin_columns:${screen}`;
  const [hidden, setHidden] = useState<string[]>(() => {
    try {
      const v: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  });
  const save = (next: string[]) => {
    setHidden(next);
    if (next.length) localStorage.setItem(storageKey, JSON.stringify(next));
    else localStorage.removeItem(storageKey);
  };
  return [hidden, save] as const;
}

function cellOf<T>(c: DataColumn<T>, row: T, index: number): ReactNode {
  const di = c.dataIndex;
  const value = di === undefined ? undefined
    : (Array.isArray(di) ? di : [di]).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], row);
  if (c.render) return c.render(value, row, index);
  return value === null || value === undefined || value === '' ? '—' : (value as ReactNode);
}

/** A phone's list: one card per row, the first column as its head, the rest as label / value pairs, 操作 at the foot. */
function RowCards<T extends object>({ rows, columns, rowKey, rowSelection, loading }: {
  rows: T[]; columns: Column<T>[]; rowKey: DataTableProps<T>['rowKey']; rowSelection?: TableProps<T>['rowSelection']; loading: boolean;
}) {
  const keyOf = (r: T, i: number): Key => (typeof rowKey === 'function' ? rowKey(r) : (r[rowKey] as Key) ?? i);
  const [head, ...rest] = columns as unknown as DataColumn<T>[];
  const op = rest.find((c) => c.key === 'op');
  const pairs = rest.filter((c) => c !== op);
  const selected = rowSelection?.selectedRowKeys ?? [];
  const toggle = (key: Key) => {
    const next = selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key];
    rowSelection?.onChange?.(next, rows.filter((r, i) => next.includes(keyOf(r, i))), { type: 'multiple' });
  };
  return (
    <Spin spinning={loading}>
      {!rows.length && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />}
      <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        {rows.map((r, i) => {
          const key = keyOf(r, i);
          return (
            <Card key={key} size="small" data-testid="row-card" styles={{ body: { padding: '8px 12px' } }}>
              <div style={{ display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 6, fontWeight: 500 }}>
                {rowSelection && <Checkbox checked={selected.includes(key)} onChange={() => toggle(key)} />}
                <div style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>{head ? cellOf(head, r, i) : null}</div>
              </div>
              <dl style={{ display: 'grid', gridTemplateColumns: 'minmax(72px, max-content) 1fr', gap: '4px 12px', margin: 0, fontSize: 13 }}>
                {pairs.map((c, ci) => (
                  <div key={columnKey(c, ci)} style={{ display: 'contents' }}>
                    <dt style={{ color: 'rgba(0,0,0,0.55)', whiteSpace: 'nowrap' }}>{c.title as ReactNode}</dt>
                    <dd style={{ margin: 0, minWidth: 0, overflowWrap: 'anywhere' }}>{cellOf(c, r, i)}</dd>
                  </div>
                ))}
              </dl>
              {op && <div style={{ marginTop: 6, borderTop: '1px solid #f0f0f0', paddingTop: 4 }}>{cellOf(op, r, i)}</div>}
            </Card>
          );
        })}
      </div>
    </Spin>
  );
}

function toQuery(values: Record<string, unknown>, filters: FilterField[]): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') continue;
    const kind = filters.find((x) => x.name === k)?.kind;
    if (kind === 'month' || kind === 'year') {
      out[k] = kind === 'month' ? (v as Dayjs).format('YYYY-MM') : (v as Dayjs).year();
      continue;
    }
    if (Array.isArray(v) && v.length === 2 && typeof (v[0] as Dayjs)?.valueOf === 'function') {
      const f = filters.find((x) => x.name === k);
      const [from, to] = f?.rangeNames ?? [`${k}From`, `${k}To`];
      const a = (v[0] as Dayjs).startOf('day');
      const b = f?.rangeFormat === 'msExclusive' ? (v[1] as Dayjs).add(1, 'day').startOf('day') : (v[1] as Dayjs).endOf('day');
      out[from] = f?.rangeFormat === 'date' ? a.format('YYYY-MM-DD') : a.valueOf();
      out[to] = f?.rangeFormat === 'date' ? b.format('YYYY-MM-DD') : b.valueOf();
    } else out[k] = typeof v === 'string' ? v.trim() : (v as number);
  }
  return out;
}

/** The query form's last item: 查询 (submits the form) and 重置 — a list's own form, or a screen's form above its lists. */
export function QueryButtons({ onReset }: { onReset: () => void }) {
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>查询</Button>
        <Button onClick={onReset} icon={<ReloadOutlined />}>重置</Button>
      </Space>
    </Form.Item>
  );
}

export function DataTable<T extends object, P extends Page<T> = Page<T>>(props: DataTableProps<T, P>) {
  const { queryKey, fetchPage, columns, rowKey, filters = [], toolbar, title, exportUrl, exportCode, params = {}, defaultPageSize = 20, summary } = props;
  const [form] = Form.useForm();
  const initialValues = useMemo(() => Object.fromEntries(filters.filter((f) => f.initial !== undefined).map((f) => [f.name, f.initial])), [filters]);
  const [applied, setApplied] = useState<Record<string, string | number | undefined>>(() => toQuery(initialValues, filters));
  const [page, setPage] = useState({ pageNo: 1, pageSize: defaultPageSize });
  const [sort, setSort] = useState<{ sortBy?: string; sortOrder?: 'asc' | 'desc' }>({});
  const [exporting, setExporting] = useState<false | string>(false);
  const canExport = useCan(exportCode ?? '__none__');
  const mobile = useIsMobile();
  const { pathname } = useLocation();
  const [hidden, setHidden] = useHiddenColumns(`${pathname}:${String(queryKey[0])}`);
  const allColumns = useMemo(() => columns ?? [], [columns]);
  const shown = useMemo(() => allColumns.filter((c, i) => !hidden.includes(columnKey(c, i))), [allColumns, hidden]);
  // the scroll width is never less than the columns need, so a fixed 操作 column cannot cover others
  const scrollX = Math.max(props.scrollX ?? 0, shown.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : FLEX_COLUMN_WIDTH), 0));
  const columnSettings = allColumns.length > 2 && (
    <Popover
      trigger="click"
      placement="bottomRight"
      title="显示的列"
      content={(
        <div data-testid="column-settings" style={{ display: 'flex', flexDirection: 'column', gap: 4, maxHeight: 360, overflowY: 'auto' }}>
          {allColumns.map((c, i) => {
            const key = columnKey(c, i);
            const locked = i === 0 || c.key === 'op';
            return (
              <Checkbox key={key} disabled={locked} checked={!hidden.includes(key)}
                onChange={(e) => setHidden(e.target.checked ? hidden.filter((k) => k !== key) : [...hidden, key])}>
                {c.title as ReactNode}
              </Checkbox>
            );
          })}
          {hidden.length > 0 && <Button size="small" type="link" style={{ alignSelf: 'flex-start', padding: 0 }} onClick={() => setHidden([])}>显示全部列</Button>}
        </div>
      )}
    >
      <Tooltip title="列设置"><Button icon={<SettingOutlined />} aria-label="列设置" /></Tooltip>
    </Popover>
  );
  const listParams: ListParams = { ...params, ...applied, ...sort, ...page };
  const query = useQuery({
    queryKey: [...queryKey, listParams],
    queryFn: () => fetchPage(listParams),
    placeholderData: keepPreviousData,
  });

  const search = () => {
    setApplied(toQuery(form.getFieldsValue(), filters));
    setPage((p) => ({ ...p, pageNo: 1 }));
  };
  const queryRef = useRef<HTMLDivElement>(null);
  const headerOffset = useHeaderOffset(queryRef);
  const reset = () => {
    form.resetFields();
    setApplied(toQuery(initialValues, filters));
    setPage((p) => ({ ...p, pageNo: 1 }));
  };

  return (
    <Card size="small" variant="borderless" title={title}>
      {filters.length > 0 && (
        <div ref={queryRef} className="kv-sticky" data-testid="sticky-query" style={{ paddingBottom: 12 }}>
        <Form form={form} layout="inline" onFinish={search} style={{ rowGap: 12 }} initialValues={initialValues}>
          {filters.map((f) => (
            <Form.Item key={f.name} name={f.name} label={f.label}>
              {f.kind === 'select' ? (
                <Select allowClear={!f.required} placeholder={f.placeholder ?? '全部'} options={f.options} style={{ width: f.width ?? 160 }} />
              ) : f.kind === 'dateRange' ? (
                <DatePicker.RangePicker style={{ width: f.width ?? 260 }} presets={f.presets} allowClear={!f.required} />
              ) : f.kind === 'month' || f.kind === 'year' ? (
                <DatePicker picker={f.kind} placeholder={f.placeholder ?? '全部'} style={{ width: f.width ?? 140 }} allowClear={!f.required} />
              ) : (
                <Input allowClear placeholder={f.placeholder ?? `请输入${f.label}`} style={{ width: f.width ?? 180 }} maxLength={64} />
              )}
            </Form.Item>
          ))}
          <QueryButtons onReset={reset} />
        </Form>
        </div>
      )}
      {(toolbar || (exportUrl && canExport) || columnSettings || summary) && (
        <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
          {summary && <div style={{ marginRight: 'auto' }}>{summary(query.data)}</div>}
          {typeof toolbar === 'function' ? toolbar({ ...params, ...applied, ...sort }) : toolbar}
          {exportUrl && canExport && (
            <Button
              icon={<DownloadOutlined />}
              loading={exporting !== false}
              data-testid="export-button"
              onClick={async () => {
                setExporting('');
                try {
                  // a large export streams for a while: say how far it got (rows announced by the server, bytes so far)
                  await download(exportUrl, {
                    query: { ...params, ...applied, ...sort },
                    onProgress: (bytes, rows) => setExporting(`${rows !== null ? `${rows} 行，` : ''}已接收 ${(bytes / 1024 / 1024).toFixed(1)} MB`),
                  });
                } catch {
                  // the HTTP client showed the reason
                } finally {
                  setExporting(false);
                }
              }}
            >
              {exporting ? `导出中${exporting ? `（${exporting}）` : '…'}` : '导出'}
            </Button>
          )}
          {!mobile && columnSettings}
        </div>
      )}
      {props.header?.(query.data)}
      {mobile ? (
        <>
          <RowCards rows={query.data?.rows ?? []} columns={allColumns} rowKey={rowKey} rowSelection={props.rowSelection} loading={query.isFetching} />
          <Pagination
            simple
            style={{ marginTop: 12, justifyContent: 'center' }}
            current={page.pageNo}
            pageSize={page.pageSize}
            total={query.data?.total ?? 0}
            showTotal={(n) => `共 ${n} 条`}
            onChange={(pageNo) => setPage((p) => ({ ...p, pageNo }))}
          />
        </>
      ) : (
      <Table<T>
        size="middle"
        rowKey={rowKey as TableProps<T>['rowKey']}
        columns={shown}
        dataSource={query.data?.rows ?? []}
        loading={query.isFetching}
        rowSelection={props.rowSelection}
        expandable={props.expandable}
        onRow={props.onRow}
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action !== 'sort') return;
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          setSort(one?.order ? { sortBy: String(one.columnKey ?? one.field), sortOrder: one.order === 'ascend' ? 'asc' : 'desc' } : {});
          setPage((p) => ({ ...p, pageNo: 1 }));
        }}
        summary={props.tableSummary ? () => props.tableSummary!(query.data, shown.map((c, i) => columnKey(c, i))) : undefined}
        scroll={{ x: scrollX }}
        sticky={{ offsetHeader: headerOffset }}
        pagination={{
          current: page.pageNo,
          pageSize: page.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (pageNo, pageSize) => setPage({ pageNo: pageSize !== page.pageSize ? 1 : pageNo, pageSize }),
        }}
      />
      )}
    </Card>
  );
}

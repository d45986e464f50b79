import { useState, type Key, type ReactNode } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, type TableProps } from 'antd';
import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@kelvin/contracts';
import type { Dayjs } from 'dayjs';
import { download } from '../lib/http';
import { useCan } from '../lib/ui';

/**
 * THE list component (one table component for the whole console): query form on top, a toolbar with the page's
 * actions (新增 …) and 导出, a server-paginated table with 共 N 条. Filters are sent as query parameters.
 */
export interface FilterField {
  name: string;
  label: string;
  kind?: 'text' | 'select' | 'dateRange';
  options?: { label: string; value: string | number }[];
  placeholder?: string;
  width?: number;
}

export type ListParams = Record<string, string | number | undefined> & { pageNo: number; pageSize: number };

export interface DataTableProps<T> {
  /** query key prefix; the filters and page are appended (invalidate it after a change) */
  queryKey: readonly unknown[];
  fetchPage: (params: ListParams) => Promise<Page<T>>;
  columns: TableProps<T>['columns'];
  rowKey: keyof T & string | ((row: T) => Key);
  filters?: FilterField[];
  /** buttons on the toolbar's right, before 导出 */
  toolbar?: ReactNode;
  title?: ReactNode;
  /** export endpoint (GET, same filters) and the element code that allows it */
  exportUrl?: string;
  exportCode?: string;
  /** fixed parameters (e.g. the selected projectId); a change reloads */
  params?: Record<string, string | number | undefined>;
  rowSelection?: TableProps<T>['rowSelection'];
  expandable?: TableProps<T>['expandable'];
  scrollX?: number;
  defaultPageSize?: number;
}

const PAGE_SIZES = [10, 20, 50, 100];

function toQuery(values: Record<string, unknown>): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 2 && typeof (v[0] as Dayjs)?.valueOf === 'function') {
      out[`${k}From`] = (v[0] as Dayjs).startOf('day').valueOf();
      out[`${k}To`] = (v[1] as Dayjs).endOf('day').valueOf();
    } else out[k] = typeof v === 'string' ? v.trim() : (v as number);
  }
  return out;
}

export function DataTable<T extends object>(props: DataTableProps<T>) {
  const { queryKey, fetchPage, columns, rowKey, filters = [], toolbar, title, exportUrl, exportCode, params = {}, defaultPageSize = 20 } = props;
  const [form] = Form.useForm();
  const [applied, setApplied] = useState<Record<string, string | number | undefined>>({});
  const [page, setPage] = useState({ pageNo: 1, pageSize: defaultPageSize });
  const [exporting, setExporting] = useState(false);
  const canExport = useCan(exportCode ?? '__none__');
  const listParams: ListParams = { ...params, ...applied, ...page };
  const query = useQuery({
    queryKey: [...queryKey, listParams],
    queryFn: () => fetchPage(listParams),
    placeholderData: keepPreviousData,
  });

  const search = () => {
    setApplied(toQuery(form.getFieldsValue()));
    setPage((p) => ({ ...p, pageNo: 1 }));
  };
  const reset = () => {
    form.resetFields();
    setApplied({});
    setPage((p) => ({ ...p, pageNo: 1 }));
  };

  return (
    <Card size="small" variant="borderless" title={title}>
      {filters.length > 0 && (
        <div className="kv-sticky" data-testid="sticky-query" style={{ paddingBottom: 12 }}>
        <Form form={form} layout="inline" onFinish={search} style={{ rowGap: 12 }}>
          {filters.map((f) => (
            <Form.Item key={f.name} name={f.name} label={f.label}>
              {f.kind === 'select' ? (
                <Select allowClear placeholder={f.placeholder ?? '全部'} options={f.options} style={{ width: f.width ?? 160 }} />
              ) : f.kind === 'dateRange' ? (
                <DatePicker.RangePicker style={{ width: f.width ?? 260 }} />
              ) : (
                <Input allowClear placeholder={f.placeholder ?? `请输入${f.label}`} style={{ width: f.width ?? 180 }} maxLength={64} />
              )}
            </Form.Item>
          ))}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>查询</Button>
              <Button onClick={reset} icon={<ReloadOutlined />}>重置</Button>
            </Space>
          </Form.Item>
        </Form>
        </div>
      )}
      {(toolbar || (exportUrl && canExport)) && (
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginBottom: 12 }}>
          {toolbar}
          {exportUrl && canExport && (
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={async () => {
                setExporting(true);
                try {
                  await download(exportUrl, { query: { ...params, ...applied } });
                } catch {
                  // the HTTP client showed the reason
                } finally {
                  setExporting(false);
                }
              }}
            >
              导出
            </Button>
          )}
        </div>
      )}
      <Table<T>
        size="middle"
        rowKey={rowKey as TableProps<T>['rowKey']}
        columns={columns}
        dataSource={query.data?.rows ?? []}
        loading={query.isFetching}
        rowSelection={props.rowSelection}
        expandable={props.expandable}
        scroll={props.scrollX ? { x: props.scrollX } : undefined}
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
    </Card>
  );
}

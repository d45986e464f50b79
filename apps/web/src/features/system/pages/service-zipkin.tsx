import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Descriptions, Empty, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { SPAN_KINDS, TRACE_KEPT, type SpanKind, type TraceKept, type TraceRow, type TraceSpan } from '@kelvin/contracts/ops';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { opsApi, systemKeys } from '../api';

const KIND_COLOR: Record<SpanKind, string> = { server: '#1677ff', internal: '#722ed1', client: '#13a8a8', producer: '#fa8c16' };
const statusColor = (s: number) => (s >= 500 ? 'red' : s >= 400 ? 'orange' : 'green');
const ms = (v: number) => (v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(v >= 10 ? 1 : 2)} ms`);

/** Spans in tree order (each after its parent, siblings by start) with their depth. */
function ordered(spans: TraceSpan[]): { span: TraceSpan; depth: number }[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | null, TraceSpan[]>();
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const out: { span: TraceSpan; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of (children.get(parent) ?? []).sort((a, b) => a.start - b.start)) {
      out.push({ span: s, depth });
      walk(s.spanId, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** The span waterfall: one row per span, a bar from its start to its end on the request's time axis. */
function Waterfall({ spans }: { spans: TraceSpan[] }) {
  if (!spans.length) return <Empty description="没有跨度" />;
  const t0 = Math.min(...spans.map((s) => s.start));
  const total = Math.max(0.001, Math.max(...spans.map((s) => s.end)) - t0);
  const rows = ordered(spans);
  return (
    <div data-testid="trace-waterfall">
      <div style={{ display: 'flex', fontSize: 12, color: '#8c8c8c', borderBottom: '1px solid #f0f0f0', paddingBottom: 4 }}>
        <div style={{ width: 320, flex: 'none' }}>跨度</div>
        <div style={{ flex: 1, display: 'flex', justifyContent: 'space-between' }}>
          {[0, 0.25, 0.5, 0.75, 1].map((f) => <span key={f}>{ms(total * f)}</span>)}
        </div>
      </div>
      {rows.map(({ span, depth }) => {
        const sql = span.attributes['db.statement'];
        const topic = span.attributes['messaging.destination'];
        const label = sql ? String(sql) : topic ? `${span.name} ${String(topic)}` : span.name;
        const left = ((span.start - t0) / total) * 100;
        const width = Math.max(((span.end - span.start) / total) * 100, 0.3);
        return (
          <div key={span.spanId} style={{ display: 'flex', alignItems: 'center', padding: '3px 0', borderBottom: '1px dashed #f5f5f5' }} data-span-kind={span.kind}>
            <div style={{ width: 320, flex: 'none', paddingLeft: depth * 14, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', fontSize: 12 }} title={label}>
              <Tag color={KIND_COLOR[span.kind]} style={{ fontSize: 11, marginRight: 4 }}>{SPAN_KINDS[span.kind]}</Tag>
              <span style={sql ? { fontFamily: 'monospace' } : undefined}>{label}</span>
            </div>
            <div style={{ flex: 1, position: 'relative', height: 18 }}>
              <Tooltip title={<div><div>{label}</div><div>开始 +{ms(span.start - t0)}，耗时 {ms(span.end - span.start)}</div>{span.error && <div>错误：{span.error}</div>}</div>}>
                <div style={{ position: 'absolute', left: `${Math.min(left, 99.7)}%`, width: `${width}%`, top: 3, height: 12, borderRadius: 2, background: span.error ? '#ff4d4f' : KIND_COLOR[span.kind] }} />
              </Tooltip>
              <span style={{ position: 'absolute', left: `${Math.min(left + width, 88)}%`, paddingLeft: 4, fontSize: 11, color: '#595959', top: 1 }}>{ms(span.end - span.start)}</span>
            </div>
          </div>
        );
      })}
    </div>
  );
}

function TraceDrawer({ traceId, onClose }: { traceId: string; onClose: () => void }) {
  const q = useQuery({ queryKey: systemKeys.trace(traceId), queryFn: () => opsApi.trace(traceId) });
  const t = q.data;
  return (
    <AppDrawer open title="调用链路详情" width={1100} onClose={onClose}>
      <Spin spinning={q.isLoading}>
        {t ? (
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            <Descriptions size="small" bordered column={3} items={[
              { key: 'id', label: '追踪号', span: 2, children: <Typography.Text copyable style={{ fontFamily: 'monospace' }}>{t.traceId}</Typography.Text> },
              { key: 'kept', label: '保留原因', children: <Tag color={t.kept === 'error' ? 'red' : 'gold'}>{TRACE_KEPT[t.kept]}</Tag> },
              { key: 'req', label: '请求', span: 2, children: <span style={{ wordBreak: 'break-all' }}>{t.method} {t.path}</span> },
              { key: 'status', label: '状态码', children: <Tag color={statusColor(t.status)}>{t.status}</Tag> },
              { key: 'at', label: '时间', children: formatDateTime(t.at) },
              { key: 'dur', label: '耗时', children: `${t.durationMs} ms` },
              { key: 'user', label: '用户', children: t.username ?? '未登录' },
              { key: 'route', label: '路由', span: 2, children: t.route },
              { key: 'spans', label: '跨度', children: `${t.spanCount} 个${t.droppedSpans ? `（另有 ${t.droppedSpans} 个未记录）` : ''}` },
            ]} />
            <Waterfall spans={t.spans} />
          </Space>
        ) : !q.isLoading && <Empty description="调用链路不存在或已被清理" />}
      </Spin>
    </AppDrawer>
  );
}

/**
 * serviceZipkinManager (调用链路追踪, platform only): the requests kept by the server — every failure (5xx, and 4xx
 * except 401 and 404) and every slow one — searchable by trace id (the one shown in bug日志 next to a failed call),
 * path, status, duration, user and time; the detail shows the span waterfall (request, handler, SQL, MQTT).
 */
export default function ServiceZipkin() {
  const [search] = useSearchParams();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <PageContainer title="调用链路追踪" extra={<Typography.Text type="secondary">保留失败请求（5xx 与除 401、404 外的 4xx）和慢请求，最多保留最新 1 万条</Typography.Text>}>
      <DataTable<TraceRow>
        queryKey={systemKeys.traces}
        fetchPage={opsApi.traces}
        rowKey="id"
        scrollX={1200}
        filters={[
          { name: 'traceId', label: '追踪号', placeholder: '32 位追踪号', width: 300, initial: search.get('traceId') ?? undefined },
          { name: 'path', label: '路径', placeholder: '如 /api/v1/device' },
          { name: 'status', label: '状态码', placeholder: '如 500', width: 110 },
          { name: 'minDuration', label: '耗时 ≥', placeholder: '毫秒', width: 110 },
          { name: 'username', label: '用户', placeholder: '用户名', width: 140 },
          { name: 'kept', label: '保留原因', kind: 'select', options: (Object.keys(TRACE_KEPT) as TraceKept[]).map((k) => ({ value: k, label: TRACE_KEPT[k] })) },
          { name: 'time', label: '时间', kind: 'dateRange', rangeNames: ['from', 'to'], rangeFormat: 'msExclusive' },
        ]}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '追踪号', dataIndex: 'traceId', width: 280, render: (v: string) => <Typography.Text style={{ fontFamily: 'monospace', fontSize: 12 }}>{v}</Typography.Text> },
          { title: '方法', dataIndex: 'method', width: 70 },
          { title: '路径', dataIndex: 'path', ellipsis: true },
          { title: '状态码', dataIndex: 'status', width: 80, render: (v: number) => <Tag color={statusColor(v)}>{v}</Tag> },
          { title: '耗时', dataIndex: 'durationMs', width: 90, render: (v: number) => `${v} ms` },
          { title: '用户', dataIndex: 'username', width: 110, render: (v: string | null) => v ?? '未登录' },
          { title: '保留原因', dataIndex: 'kept', width: 90, render: (v: TraceKept) => <Tag color={v === 'error' ? 'red' : 'gold'}>{TRACE_KEPT[v]}</Tag> },
          { title: '跨度', dataIndex: 'spanCount', width: 60 },
          { title: '操作', key: 'op', width: 80, fixed: 'right', render: (_: unknown, r) => <Button type="link" size="small" onClick={() => setOpen(r.traceId)}>详情</Button> },
        ]}
      />
      {open && <TraceDrawer traceId={open} onClose={() => setOpen(null)} />}
    </PageContainer>
  );
}

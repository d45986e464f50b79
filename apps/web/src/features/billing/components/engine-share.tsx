import type { ReactNode } from 'react';
import { Alert, Card, Collapse, Empty, Space, Typography, type TableProps } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { BILLING_METHODS, billingSchemeName, schemeOf, SHARE_METHODS, type BillLineRow, type BillingMethod, type BillingRunRow } from '@kelvin/contracts';
import { formatFen } from '../../accounts';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { billingKeys, ENGINE_EXPORTS, engineApi, type MoneyPage } from '../api';
import type { AmountItem } from './engine-charts';
import { formatQuantity, periodText } from './engine-lines';
import { useRunPicker } from './engine-run-picker';
import { GapsTable, NoRuns } from './engine-runs';

/** lines drawn in a chart (more accounts than this are summed as 其他) */
const CHART_LINES = 200;
const CHART_SLICES = 10;

/** The share lines of a run (one query for the chart; the table pages on its own). */
export function useShareLines(run: BillingRunRow | null, method: string) {
  return useQuery({
    queryKey: [...billingKeys.lines(run?.projectId ?? null), 'share-chart', run?.runId, method],
    queryFn: () => engineApi.lines({ projectId: run!.projectId, runId: run!.runId, method, pageNo: 1, pageSize: CHART_LINES }),
    enabled: run !== null,
  });
}

/** The largest shares as slices or bars, the rest (also beyond the first page) as 其他 — the items add up to the total. */
export function shareItems(data: MoneyPage<BillLineRow> | undefined, slices = CHART_SLICES, note?: (l: BillLineRow) => string): AmountItem[] {
  if (!data) return [];
  const byAmount = [...data.rows].filter((l) => l.amountFen > 0).sort((a, b) => b.amountFen - a.amountFen);
  const shown = byAmount.length > slices ? byAmount.slice(0, slices - 1) : byAmount;
  const items = shown.map((l) => ({ name: l.accountName, fen: l.amountFen, note: note?.(l) }));
  const rest = data.totalFen - items.reduce((x, i) => x + i.fen, 0);
  if (rest > 0) items.push({ name: '其他', fen: rest, note: undefined });
  return items;
}

/** Whether the share lines add up to the run's total, and what else the run holds (base fees, metering plans …). */
export function ShareTotals({ run, shareFen }: { run: BillingRunRow; shareFen: number | undefined }) {
  if (shareFen === undefined) return null;
  const other = run.totalFen - shareFen;
  return (
    <Space wrap size={16} data-testid="share-totals">
      <Typography.Text>分摊合计：<Typography.Text strong>{formatFen(shareFen)}</Typography.Text> 元</Typography.Text>
      <Typography.Text>批次金额：<Typography.Text strong>{formatFen(run.totalFen)}</Typography.Text> 元</Typography.Text>
      {other === 0
        ? <Typography.Text type="success"><CheckCircleFilled /> 分摊合计与批次金额一致</Typography.Text>
        : <Typography.Text type="secondary">其余 {formatFen(other)} 元为本批次的非分摊明细（基础费、计量方案设备等）</Typography.Text>}
    </Space>
  );
}

/** The run's scheme is not a share scheme (or not the one the screen reports): its lines are not these shares. */
export function NotShareScheme({ run, only, children }: { run: BillingRunRow; only?: BillingMethod; children: ReactNode }) {
  const method = schemeOf(run.scheme)?.method;
  if (method && (only ? method === only : SHARE_METHODS.has(method))) return <>{children}</>;
  const what = only ? `「${BILLING_METHODS[only]}」` : '分摊方案';
  return <Alert type="info" showIcon message={`本批次按「${billingSchemeName(run.scheme)}」计费，不是${what}，没有${only ? '这类' : '分摊'}明细`} description="计费方案在「计费方案设置」中选择；本批次的费用明细见「设备计费 › 计费批次」。" />;
}

/** The run's gaps, folded: a member without a team, a team without its total meter, heat that could not be placed. */
export function RunGapsPanel({ run }: { run: BillingRunRow }) {
  if (!run.gaps.length) return null;
  return (
    <Collapse size="small" items={[{
      key: 'gaps', label: <Typography.Text type="warning">本批次有 {run.gaps.length} 条缺数说明（未分摊的账户、缺读数的设备等）</Typography.Text>,
      children: <GapsTable gaps={run.gaps} />,
    }]} />
  );
}

/** A chart card that shows its empty state when there is nothing to draw. */
export function ChartCard({ title, loading, empty, children }: { title: string; loading: boolean; empty: boolean; children: ReactNode }) {
  return (
    <Card size="small" title={title} loading={loading}>
      {empty ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="本批次没有分摊金额" /> : children}
    </Card>
  );
}

/** how a share method splits the cost (design §8), for the screen's note */
const SHARE_RULES: Partial<Record<BillingMethod, string>> = {
  shareTime: '总费用（分摊组总表用量 × 单价）减去公共区域表的费用后按各户时间当量分摊，公共区域费用按面积分摊',
  shareEnergy: '总费用（分摊组总表用量 × 单价）减去公共区域表的费用后按各户能量当量分摊，公共区域费用按面积分摊',
  shareMixed: '总费用按「面积分摊比例」的部分按面积分摊，其余按各户时间当量分摊',
  shareArea: '总费用全部按各户面积分摊',
  heatTwoPart: '基本热费按面积、计量热费按热量',
  onOffTimeArea: '楼栋热量按各户「面积 × 通阀时间」分配（JGJ 173-2009），分摊热量 × 热价为各户金额',
};
export const shareRule = (scheme: number) => SHARE_RULES[schemeOf(scheme)?.method ?? 'shareTime'] ?? '';

export const areaText = (l: BillLineRow) => (l.basis ? `${formatQuantity(l.basis.area)} m²` : '—');

/**
 * A share screen (AG2410 计费数据, 设备费用分摊): the run picker; no run yet, or a run whose scheme is not this share;
 * else the run's rule, its gaps, the chart of the largest shares and the lines with their totals.
 */
export function ShareRunPage({ title, projectId, method, only, rule = '', chartTitle, slices, itemNote, chart, linesKey, exportCode, columns, footer }: {
  title: string;
  projectId: number;
  /** the lines' method filter ('share': every share method) */
  method: string;
  /** the one method the screen reports (otherwise any share scheme) */
  only?: BillingMethod;
  /** said after the scheme's rule */
  rule?: string;
  chartTitle: string;
  slices: number;
  itemNote: (l: BillLineRow) => string;
  chart: (items: AmountItem[]) => ReactNode;
  /** the lines table's own query key segment */
  linesKey: string;
  exportCode: string;
  columns: (run: BillingRunRow) => TableProps<BillLineRow>['columns'];
  footer?: ReactNode;
}) {
  const { run, picker, loading } = useRunPicker(projectId);
  const lines = useShareLines(run, method);
  const items = shareItems(lines.data, slices, itemNote);
  return (
    <PageContainer title={title} extra={picker}>
      {!run ? (loading ? <Empty description="加载中…" /> : <NoRuns />) : (
        <NotShareScheme run={run} only={only}>
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <Typography.Text type="secondary">
              批次 #{run.runId}，{periodText(run.periodFrom, run.periodUntil)}，{billingSchemeName(run.scheme)}：{shareRule(run.scheme)}{rule}。
            </Typography.Text>
            <RunGapsPanel run={run} />
            <ChartCard title={chartTitle} loading={lines.isLoading} empty={!items.length}>
              {chart(items)}
            </ChartCard>
            <DataTable<BillLineRow, MoneyPage<BillLineRow>>
              queryKey={[...billingKeys.lines(projectId), linesKey, run.runId]}
              fetchPage={engineApi.lines}
              params={{ projectId, runId: run.runId, method }}
              rowKey="id"
              summary={(d) => <ShareTotals run={run} shareFen={d?.totalFen} />}
              exportUrl={ENGINE_EXPORTS.lines}
              exportCode={exportCode}
              columns={columns(run)}
            />
            {footer}
          </Space>
        </NotShareScheme>
      )}
    </PageContainer>
  );
}

import { Empty, Space, Typography } from 'antd';
import { billingSchemeName, type BillingMethod, type BillLineRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatFen } from '../../accounts';
import { billingKeys, ENGINE_EXPORTS, engineApi, type MoneyPage } from '../api';
import { AmountBarChart } from '../components/engine-charts';
import { formatQuantity, LineReadings, periodText } from '../components/engine-lines';
import { useRunPicker } from '../components/engine-run-picker';
import { areaText, ChartCard, NotShareScheme, RunGapsPanel, shareItems, ShareTotals, shareRule, useShareLines } from '../components/engine-share';

const METHOD = 'onOffTimeArea' satisfies BillingMethod;

/**
 * ag2410chargedata (AG2410 计费数据): the on/off-time-area allocation of a run — per account its area, the valve-open
 * hours its AG2410 controllers counted (f30, from → to), the heat placed on it, the price and the money — and a bar
 * per account.
 */
export default function Ag2410ChargeDataPage() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="AG2410 计费数据" />;
  return <Ag2410 projectId={projectId} />;
}

function Ag2410({ projectId }: { projectId: number }) {
  const { run, picker, loading } = useRunPicker(projectId);
  const chart = useShareLines(run, METHOD);
  const items = shareItems(chart.data, 20, (l) => `分摊热量 ${formatQuantity(l.quantity, 'GJ')}，通阀 ${formatQuantity(l.basis?.hours, 'h')}`);
  return (
    <PageContainer title="AG2410 计费数据" extra={picker}>
      {!run ? (
        <Empty description={loading ? '加载中…' : '本项目还没有计费批次：在「设备计费 › 计费批次」中点「立即计费」'} />
      ) : (
        <NotShareScheme run={run} only={METHOD}>
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <Typography.Text type="secondary">
              批次 #{run.runId}，{periodText(run.periodFrom, run.periodUntil)}，{billingSchemeName(run.scheme)}：{shareRule(run.scheme)}。
            </Typography.Text>
            <RunGapsPanel run={run} />
            <ChartCard title="各户分摊金额" loading={chart.isLoading} empty={!items.length}>
              <AmountBarChart items={items} testId="ag2410-chart" />
            </ChartCard>
            <DataTable<BillLineRow, MoneyPage<BillLineRow>>
              queryKey={[...billingKeys.lines(projectId), 'ag2410', run.runId]}
              fetchPage={engineApi.lines}
              params={{ projectId, runId: run.runId, method: METHOD }}
              rowKey="id"
              summary={(d) => <ShareTotals run={run} shareFen={d?.totalFen} />}
              exportUrl={ENGINE_EXPORTS.lines}
              exportCode="ag2410chargedata:export"
              columns={[
                { title: '账户', dataIndex: 'accountName', width: 130 },
                { title: '分摊组', key: 'team', width: 130, render: (_, l) => l.basis?.team ?? '—' },
                { title: '面积', key: 'area', width: 110, align: 'right', render: (_, l) => areaText(l) },
                { title: '通阀时间', key: 'hours', width: 110, align: 'right', render: (_, l) => formatQuantity(l.basis?.hours, 'h') },
                { title: '累计通阀时间（起 → 止）', key: 'readings', width: 330, render: (_, l) => <LineReadings line={l} /> },
                { title: '分摊热量', key: 'heat', width: 120, align: 'right', render: (_, l) => formatQuantity(l.quantity, l.unit) },
                { title: '单价（元/GJ）', dataIndex: 'unitPrice', width: 120, align: 'right' },
                { title: '金额（元）', dataIndex: 'amountFen', width: 120, align: 'right', render: (v: number) => <Typography.Text strong>{formatFen(v)}</Typography.Text> },
              ]}
            />
          </Space>
        </NotShareScheme>
      )}
    </PageContainer>
  );
}

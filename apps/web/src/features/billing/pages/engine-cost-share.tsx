import { Tag, Typography, type TableProps } from 'antd';
import { schemeOf, type BillingMethod, type BillLineRow } from '@kelvin/contracts';
import { NoProject, useProjectId } from '../../../components/page';
import { formatFen } from '../../accounts';
import { SharePieChart } from '../components/engine-charts';
import { formatQuantity, LineReadings, lineMethodLabel } from '../components/engine-lines';
import { areaText, ShareRunPage } from '../components/engine-share';

/** the line filter the server reads as "every share method" */
const SHARE = 'share';

/**
 * equipmentCostShare_n (设备费用分摊): how a run split the plant's cost over the members of each share team — per
 * account its equivalent, area and share — the total tying to the run's, and the shares as a pie.
 */
export default function CostSharePage() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="设备费用分摊" />;
  return <CostShare projectId={projectId} />;
}

/** a share by area has no equivalent, readings or unit price: those columns only for the other methods */
function columnsFor(method: BillingMethod | undefined): TableProps<BillLineRow>['columns'] {
  const byArea = method === 'shareArea';
  return [
    { title: '账户', dataIndex: 'accountName', width: 130 },
    { title: '分摊组', key: 'team', width: 120, render: (_, l) => l.basis?.team ?? '—' },
    { title: '分摊方式', dataIndex: 'method', width: 110, render: (m: BillLineRow['method']) => <Tag>{lineMethodLabel(m)}</Tag> },
    ...(byArea ? [] : [{
      title: '当量', key: 'equivalent', width: 110, align: 'right' as const,
      render: (_: unknown, l: BillLineRow) => formatQuantity(l.basis?.hours ?? l.basis?.equivalent ?? l.quantity, l.method === 'onOffTimeArea' ? 'h' : l.unit),
    }]),
    { title: '面积', key: 'area', width: 110, align: 'right', render: (_, l) => areaText(l) },
    ...(byArea ? [] : [
      { title: '读数（起 → 止）', key: 'readings', width: 300, render: (_: unknown, l: BillLineRow) => <LineReadings line={l} /> },
      { title: '分摊单价（元）', dataIndex: 'unitPrice', width: 120, align: 'right' as const },
    ]),
    { title: '分摊金额（元）', dataIndex: 'amountFen', width: 130, align: 'right', render: (v: number) => <Typography.Text strong>{formatFen(v)}</Typography.Text> },
  ];
}

function CostShare({ projectId }: { projectId: number }) {
  return (
    <ShareRunPage
      title="设备费用分摊"
      projectId={projectId}
      method={SHARE}
      rule="；各户金额合计等于总费用（按最大余数法分到分）"
      chartTitle="各户分摊金额占比"
      slices={10}
      itemNote={(l) => `当量 ${formatQuantity(l.basis?.equivalent ?? l.quantity, l.unit)}，面积 ${areaText(l)}`}
      chart={(items) => <SharePieChart items={items} testId="cost-share-pie" />}
      linesKey="share"
      exportCode="equipmentCostShare_n:export"
      columns={(run) => columnsFor(schemeOf(run.scheme)?.method)}
      footer={<Typography.Text type="secondary" style={{ fontSize: 12 }}>当量、面积为计费时各户的数值：此后的房间或分摊组变动不改变已计费的分摊。</Typography.Text>}
    />
  );
}

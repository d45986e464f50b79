import { Typography } from 'antd';
import type { BillingMethod } from '@kelvin/contracts';
import { NoProject, useProjectId } from '../../../components/page';
import { formatFen } from '../../accounts';
import { AmountBarChart } from '../components/engine-charts';
import { formatQuantity, LineReadings } from '../components/engine-lines';
import { areaText, ShareRunPage } from '../components/engine-share';

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
  return (
    <ShareRunPage
      title="AG2410 计费数据"
      projectId={projectId}
      method={METHOD}
      only={METHOD}
      chartTitle="各户分摊金额"
      slices={20}
      itemNote={(l) => `分摊热量 ${formatQuantity(l.quantity, 'GJ')}，通阀 ${formatQuantity(l.basis?.hours, 'h')}`}
      chart={(items) => <AmountBarChart items={items} testId="ag2410-chart" />}
      linesKey="ag2410"
      exportCode="ag2410chargedata:export"
      columns={() => [
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
  );
}

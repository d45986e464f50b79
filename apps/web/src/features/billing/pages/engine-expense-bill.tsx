import { useState } from 'react';
import { App, Button, Space } from 'antd';
import { FileDoneOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { BILL_PAY_METHODS, BILL_STATUS, type BillStatus, type ExpenseBillRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { Can, useCan } from '../../../lib/ui';
import { accountKeys, formatFen } from '../../accounts';
import { billingKeys, ENGINE_EXPORTS, engineApi, type MoneyPage } from '../api';
import { BillDrawer, BillStatusTag, IssueDialog, PayDialog } from '../components/engine-bills';
import { TotalOf } from '../components/engine-lines';

/**
 * expensebill (费用账单, postpaid projects 101–104): the bills of each accounting period — 出账 gathers the period's
 * billed lines into one bill per account, 缴费 settles one (cash, transfer or from the prepaid balance), overdue
 * bills stand out in red.
 */
export default function ExpenseBillPage() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [issuing, setIssuing] = useState(false);
  const [paying, setPaying] = useState<ExpenseBillRow | null>(null);
  const [viewing, setViewing] = useState<ExpenseBillRow | null>(null);
  const canPay = useCan('expensebill:btn_edit');
  if (projectId === null) return <NoProject title="费用账单" />;
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: billingKeys.engine });
    void qc.invalidateQueries({ queryKey: accountKeys.all });
  };
  return (
    <PageContainer title="费用账单">
      <DataTable<ExpenseBillRow, MoneyPage<ExpenseBillRow>>
        queryKey={billingKeys.bills(projectId)}
        fetchPage={engineApi.bills}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'period', label: '账期', kind: 'month' },
          { name: 'status', label: '状态', kind: 'select', width: 120, options: Object.entries(BILL_STATUS).map(([value, label]) => ({ value, label })) },
          { name: 'keyword', label: '关键字', placeholder: '户名或手机号', width: 180 },
        ]}
        summary={(d) => <TotalOf data={d} label="账单合计" />}
        onRow={(r) => ({ onClick: () => setViewing(r), style: { cursor: 'pointer' } })}
        toolbar={(
          <Can code="expensebill:btn_add">
            <Button type="primary" icon={<FileDoneOutlined />} onClick={() => setIssuing(true)}>出账</Button>
          </Can>
        )}
        exportUrl={ENGINE_EXPORTS.bills}
        exportCode="expensebill:export"
        columns={[
          { title: '账单号', dataIndex: 'id', width: 90, render: (v: number) => `#${v}` },
          { title: '账户', dataIndex: 'accountName', width: 130 },
          { title: '手机号', dataIndex: 'phone', width: 130 },
          { title: '账期', dataIndex: 'period', width: 90 },
          { title: '金额（元）', dataIndex: 'amountFen', width: 120, align: 'right', render: (v: number) => formatFen(v) },
          { title: '明细数', dataIndex: 'lines', width: 80, align: 'right' },
          { title: '状态', dataIndex: 'status', width: 90, render: (v: BillStatus) => <BillStatusTag status={v} /> },
          { title: '出账时间', dataIndex: 'issuedAt', width: 160, render: (v: number) => formatDateTime(v) },
          { title: '缴费期限', dataIndex: 'dueAt', width: 110, render: (v: number) => formatDateTime(v, 'YYYY-MM-DD') },
          { title: '缴费时间', dataIndex: 'paidAt', width: 160, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
          { title: '缴费方式', dataIndex: 'payMethod', width: 100, render: (v: string | null) => (v ? BILL_PAY_METHODS[v as keyof typeof BILL_PAY_METHODS] ?? v : '—') },
          {
            title: '操作', key: 'op', width: 120, fixed: 'right', render: (_, r) => (
              <Space size={0} onClick={(e) => e.stopPropagation()}>
                <Button type="link" size="small" onClick={() => setViewing(r)}>详情</Button>
                {r.status !== 'paid' && (
                  <Can code="expensebill:btn_edit"><Button type="link" size="small" onClick={() => setPaying(r)}>缴费</Button></Can>
                )}
              </Space>
            ),
          },
        ]}
      />
      <IssueDialog projectId={projectId} open={issuing} onClose={() => setIssuing(false)} onDone={(r, period) => {
        setIssuing(false);
        if (r.issued) message.success(`已出具 ${period} 账单 ${r.issued} 份，合计 ${formatFen(r.totalFen)} 元`);
        else message.info(`${period} 没有需要出具的账单（该账期的明细都已出账，或还没有计费明细）`);
        refresh();
      }} />
      <PayDialog bill={paying} onClose={() => setPaying(null)} onDone={(b) => {
        message.success(`缴费成功：${b.accountName} ${b.period} 账单 ${formatFen(b.amountFen)} 元`);
        setPaying(null);
        if (viewing?.id === b.id) setViewing(b);
        refresh();
      }} />
      <BillDrawer bill={viewing} onClose={() => setViewing(null)} onPay={canPay ? setPaying : undefined} />
    </PageContainer>
  );
}

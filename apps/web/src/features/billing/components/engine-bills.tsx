import { useState } from 'react';
import { Alert, Button, DatePicker, Descriptions, Form, Input, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { amountInWords, BILL_PAY_METHODS, BILL_STATUS, type BillStatus, type ExpenseBillRow } from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { dayjs, formatDateTime } from '../../../lib/time';
import { AppModal, PreventClickButton } from '../../../lib/ui';
import { formatFen, MoneyDialog } from '../../accounts';
import { billingKeys, engineApi } from '../api';
import { LinesTable, periodText } from './engine-lines';

export const BILL_STATUS_COLORS: Record<BillStatus, string> = { issued: 'gold', paid: 'green', overdue: 'red' };
export const BillStatusTag = ({ status }: { status: BillStatus }) => <Tag color={BILL_STATUS_COLORS[status]}>{BILL_STATUS[status] ?? status}</Tag>;
const words = (fen: number) => `${formatFen(fen)} 元（${amountInWords(fen)}）`;
type PayMethod = keyof typeof BILL_PAY_METHODS;

/** 出账: pick the accounting period, then one confirmation — every account of the project gets its bill for it. */
export function IssueDialog({ projectId, open, onClose, onDone }: {
  projectId: number; open: boolean; onClose: () => void; onDone: (r: { issued: number; totalFen: number }, period: string) => void;
}) {
  const [period, setPeriod] = useState(() => dayjs().subtract(1, 'month'));
  const issue = useMutation({
    mutationFn: (p: string) => engineApi.issueBills({ projectId, period: p }),
    onSuccess: (r, p) => onDone(r, p),
  });
  const text = period.format('YYYY-MM');
  return (
    <AppModal open={open} title="出账" onCancel={onClose} footer={[
      <Button key="c" onClick={onClose} disabled={issue.isPending}>取消</Button>,
      <Popconfirm key="ok" title={`出具 ${text} 账期的账单？`} description="将为该账期所有账户出具账单" okText="出账" cancelText="取消" onConfirm={() => issue.mutate(text)}>
        <Button type="primary" loading={issue.isPending}>出账</Button>
      </Popconfirm>,
    ]}>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message="先把项目计费到账期结束（结算日），再为每个账户出具一份该账期的账单，汇总其尚未入账的明细。账期结束后才能出账；再次出账只为还没有账单的账户出具，不会重复。" />
      <Form layout="vertical">
        <Form.Item label="账期" required>
          <DatePicker picker="month" allowClear={false} value={period} onChange={(d) => d && setPeriod(d)} disabledDate={(d) => d.isAfter(dayjs(), 'month')} aria-label="账期" style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}

type PayValues = { method: PayMethod; remark?: string };

/** 缴费 of a bill: the amount is the bill's (shown with its 大写), the way it was paid, one confirmed request with the dialog's Idempotency-Key. */
export function PayDialog({ bill, onClose, onDone }: { bill: ExpenseBillRow | null; onClose: () => void; onDone: (r: ExpenseBillRow) => void }) {
  const [form] = Form.useForm<PayValues>();
  const method = Form.useWatch('method', form);
  return (
    <MoneyDialog<PayValues, ExpenseBillRow> open={!!bill} title="缴费" okText="缴费" form={form} initialValues={{ method: 'cash' }}
      extra={bill && (
        <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }} items={[
          { label: '账户', children: bill.accountName },
          { label: '账期', children: bill.period },
          { label: '应缴金额', children: <b data-testid="pay-amount">{formatFen(bill.amountFen)} 元</b>, span: 2 },
          { label: '大写', children: amountInWords(bill.amountFen), span: 2 },
          { label: '缴费期限', children: formatDateTime(bill.dueAt, 'YYYY-MM-DD'), span: 2 },
        ]} />
      )}
      confirm={(v) => bill && <>为 <b>{bill.accountName}</b> 缴纳 {bill.period} 账单 <b>{words(bill.amountFen)}</b>，方式：{BILL_PAY_METHODS[v.method]}？</>}
      submit={(v, key) => engineApi.payBill(bill!.id, { method: v.method, remark: v.remark?.trim() || undefined }, key)}
      onDone={(r) => onDone(r)} onClose={onClose}>
      <Form.Item name="method" label="缴费方式" rules={[{ required: true, message: '请选择缴费方式' }]}
        extra={method === 'balance' ? '从该账户的预付余额中扣除；余额不足时不能抵扣' : undefined}>
        <Select options={Object.entries(BILL_PAY_METHODS).map(([value, label]) => ({ value, label }))} />
      </Form.Item>
      <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 个字符' }]}><Input maxLength={200} placeholder="如 转账流水号" /></Form.Item>
    </MoneyDialog>
  );
}

/** A bill: its figures and the lines it holds (with the readings each came from). */
export function BillDrawer({ bill, onClose, onPay }: { bill: ExpenseBillRow | null; onClose: () => void; onPay?: (b: ExpenseBillRow) => void }) {
  return (
    <AppDrawer open={!!bill} size={1200} title={bill ? `账单 #${bill.id}：${bill.accountName}（${bill.period}）` : ''} onClose={onClose} destroyOnHidden
      extra={bill && bill.status !== 'paid' && onPay ? <PreventClickButton type="primary" onClick={() => onPay(bill)}>缴费</PreventClickButton> : null}>
      {bill && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={3} items={[
            { label: '账户', children: bill.accountName },
            { label: '手机号', children: bill.phone || '—' },
            { label: '状态', children: <BillStatusTag status={bill.status} /> },
            { label: '账期', children: bill.period },
            { label: '计费周期', children: periodText(bill.periodFrom, bill.periodUntil), span: 2 },
            { label: '金额', children: <b>{formatFen(bill.amountFen)} 元</b> },
            { label: '大写', children: amountInWords(bill.amountFen), span: 2 },
            { label: '出账时间', children: formatDateTime(bill.issuedAt) },
            { label: '缴费期限', children: formatDateTime(bill.dueAt, 'YYYY-MM-DD') },
            { label: '明细数', children: bill.lines },
            { label: '缴费时间', children: bill.paidAt ? formatDateTime(bill.paidAt) : '—' },
            { label: '缴费方式', children: bill.payMethod ? BILL_PAY_METHODS[bill.payMethod as PayMethod] ?? bill.payMethod : '—' },
            { label: '经办人', children: bill.paidBy ?? '—' },
          ]} />
          <LinesTable
            title="账单明细"
            queryKey={[...billingKeys.lines(bill.projectId), 'bill', bill.id]}
            params={{ projectId: bill.projectId, billId: bill.id }}
            fetchPage={engineApi.lines}
            columns={['device', 'method', 'readings', 'quantity', 'unitPrice', 'amount', 'period']}
            empty={<Typography.Text type="secondary">账单没有明细</Typography.Text>}
          />
        </Space>
      )}
    </AppDrawer>
  );
}

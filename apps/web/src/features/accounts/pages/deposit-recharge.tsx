import { useState } from 'react';
import { App, Button, Descriptions, Form, Input, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DEPOSIT_DIRECT_CAUSE, amountInWords, type DepositCollectPage, type LedgerEntryDto, type MoneyMoveResult } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { AccountSelect } from '../components/account-select';
import { AmountWords } from '../components/money-actions';
import { fenOf, MoneyDialog, YuanInput, yuanRule } from '../components/money-dialog';
import { formatFen } from '../money';

type Values = { accountId: number; amount: string; reason: string };

/** 新增 = collect a deposit for one account of the project, through the money dialog (confirmation, one Idempotency-Key). */
function CollectDialog({ projectId, open, onClose, onDone }: { projectId: number; open: boolean; onClose: () => void; onDone: (r: MoneyMoveResult) => void }) {
  const [form] = Form.useForm<Values>();
  const accountId = Form.useWatch('accountId', form);
  const account = useQuery({ queryKey: accountKeys.detail(accountId ?? null), queryFn: () => accountApi.get(accountId!), enabled: !!accountId });
  const a = account.data;
  return (
    <MoneyDialog<Values, MoneyMoveResult> open={open} title="收取押金" okText="收取" form={form} initialValues={{ reason: '入住押金' }}
      confirm={(v) => <>向 <b>{a?.name ?? `账户 ${v.accountId}`}</b> 收取押金 <b>{formatFen(fenOf(v.amount))} 元（{amountInWords(fenOf(v.amount))}）</b>？</>}
      submit={(v, key) => accountApi.deposit('collect', { accountId: v.accountId, amountFen: fenOf(v.amount), reason: v.reason.trim() }, key)}
      onDone={(r) => onDone(r)} onClose={onClose}
      extra={a ? (
        <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }} items={[
          { label: '账户', children: `${a.name}（${a.rooms.map((r) => r.path || r.name).join('、') || a.phone}）`, span: 2 },
          { label: '现有押金', children: `${formatFen(a.depositFen)} 元` },
          { label: '余额', children: `${formatFen(a.balanceFen)} 元` },
        ]} />
      ) : null}>
      <Form.Item name="accountId" label="账户" rules={[{ required: true, message: '请选择账户' }]}><AccountSelect projectId={projectId} /></Form.Item>
      <Form.Item name="amount" label="押金金额" rules={[yuanRule(null, '押金金额')]}><YuanInput /></Form.Item>
      <AmountWords name="amount" />
      <Form.Item name="reason" label="说明" rules={[{ required: true, whitespace: true, message: '请填写说明' }, { max: 200, message: '最多 200 个字符' }]}><Input maxLength={200} /></Form.Item>
    </MoneyDialog>
  );
}

/**
 * depositRecharge (押金充值): the deposit collections of the selected project from the one ledger — by account,
 * operator and time, with the total of the whole filter (not just the page) — and 新增 to collect one.
 */
export default function DepositRechargePage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [adding, setAdding] = useState(false);
  const accounts = useQuery({
    queryKey: [...accountKeys.list(projectId), 'filter-options'],
    queryFn: () => accountApi.list({ projectId: projectId!, pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null,
  });
  if (projectId === null) return <NoProject title="押金充值" />;
  return (
    <PageContainer title="押金充值">
      <DataTable<LedgerEntryDto, DepositCollectPage>
        queryKey={accountKeys.depositCollects(projectId)}
        fetchPage={accountApi.depositCollects}
        params={{ projectId }}
        rowKey="id"
        exportUrl="/api/v1/account/deposit/collect/export"
        exportCode="depositRecharge:export"
        filters={[
          { name: 'accountId', label: '账户', kind: 'select', width: 200, options: (accounts.data?.rows ?? []).map((a) => ({ value: a.id, label: `${a.name}（${a.rooms.map((r) => r.name).join('、') || a.phone}）` })) },
          { name: 'operator', label: '经办人', width: 140 },
          { name: 'time', label: '时间', kind: 'dateRange', rangeNames: ['startTime', 'endTime'] },
        ]}
        summary={(d) => (d ? <Typography.Text data-testid="deposit-total">合计 <b>{formatFen(d.totalFen)}</b> 元（{d.total} 笔）</Typography.Text> : null)}
        toolbar={<Can code="depositRecharge:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>新增</Button></Can>}
        columns={[
          { title: '时间', dataIndex: 'createdAt', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '账户', dataIndex: 'accountName', width: 140 },
          { title: '金额（元）', dataIndex: 'amountFen', width: 120, align: 'right', render: (v: number) => formatFen(v) },
          { title: '押金余额（元）', dataIndex: 'balanceAfterFen', width: 130, align: 'right', render: (v: number) => formatFen(v) },
          { title: '方式', dataIndex: 'causeType', width: 80, render: (v: string | null) => (v === DEPOSIT_DIRECT_CAUSE ? '直充' : '收取') },
          { title: '说明', dataIndex: 'reason', width: 200 },
          { title: '经办人', dataIndex: 'actorName', width: 110 },
          { title: '流水号', dataIndex: 'id', width: 90 },
        ]}
      />
      <CollectDialog projectId={projectId} open={adding} onClose={() => setAdding(false)} onDone={(r) => {
        message.success(`收取成功，押金 ${formatFen(r.depositFen)} 元`);
        setAdding(false);
        void qc.invalidateQueries({ queryKey: accountKeys.all });
      }} />
    </PageContainer>
  );
}

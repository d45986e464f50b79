import { useState } from 'react';
import { App, Button, Card, Col, Descriptions, Row, Space, Spin, Statistic, Tabs, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ACCOUNT_KINDS, ACCOUNT_STATUS, LEDGER_KINDS, ORDER_STATUS, REFUND_STATUS, TOPUP_METHODS, type AccountDto, type DepositAction,
  type LedgerEntryDto, type OrderDto, type ReceiptDto, type RefundDto,
} from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { formatFen } from '../money';
import { DEPOSIT_ACTION_LABELS, DepositDialog, OnlineTopupDialog, RefundDialog, SettleDialog, TopupDialog } from './money-actions';
import { ReceiptModal } from './receipt';

export const STATUS_COLORS = { active: 'green', closed: 'default' } as const;
export const REFUND_COLORS = { pending: 'orange', done: 'green', rejected: 'red' } as const;
export const ORDER_COLORS = { created: 'blue', paid: 'green', closed: 'default', refunded: 'purple' } as const;

/** A signed amount: + green (money in), − red (money out). */
export function Signed({ fen }: { fen: number }) {
  return <Typography.Text type={fen < 0 ? 'danger' : 'success'}>{fen > 0 ? '+' : ''}{formatFen(fen)}</Typography.Text>;
}

/** The ledger of one book of an account (账户流水 or 押金), newest first, paginated by the server. */
function LedgerTable({ accountId, book, onReceipt }: { accountId: number; book: 'balance' | 'deposit'; onReceipt?: (entryId: number) => void }) {
  return (
    <DataTable<LedgerEntryDto>
      queryKey={accountKeys.ledger(accountId, book)}
      fetchPage={(q) => accountApi.ledger(accountId, q)}
      params={{ book }}
      rowKey="id"
      defaultPageSize={10}
      columns={[
        { title: '时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
        { title: '类型', dataIndex: 'kind', width: 90, render: (v: keyof typeof LEDGER_KINDS) => LEDGER_KINDS[v] },
        { title: '金额（元）', dataIndex: 'amountFen', width: 110, align: 'right', render: (v: number) => <Signed fen={v} /> },
        { title: book === 'balance' ? '余额（元）' : '押金（元）', dataIndex: 'balanceAfterFen', width: 110, align: 'right', render: (v: number) => formatFen(v) },
        { title: '方式', dataIndex: 'method', width: 90, render: (v: keyof typeof TOPUP_METHODS | null) => (v ? TOPUP_METHODS[v] : '—') },
        { title: '说明', dataIndex: 'reason', width: 160 },
        { title: '经办人', dataIndex: 'actorName', width: 100 },
        ...(onReceipt ? [{ title: '操作', key: 'op', width: 80, render: (_: unknown, e: LedgerEntryDto) => (e.kind === 'topup' ? <Button type="link" size="small" onClick={() => onReceipt(e.id)}>收据</Button> : null) }] : []),
      ]}
    />
  );
}

function AccountOrders({ account }: { account: AccountDto }) {
  return (
    <DataTable<OrderDto>
      queryKey={accountKeys.orders(account.projectId, account.id)}
      fetchPage={accountApi.orders}
      params={{ projectId: account.projectId, accountId: account.id }}
      rowKey="id"
      defaultPageSize={10}
      columns={[
        { title: '订单号', dataIndex: 'orderNo', width: 200 },
        { title: '金额（元）', dataIndex: 'amountFen', width: 110, align: 'right', render: (v: number) => formatFen(v) },
        { title: '状态', dataIndex: 'status', width: 90, render: (v: keyof typeof ORDER_STATUS) => <Tag color={ORDER_COLORS[v]}>{ORDER_STATUS[v]}</Tag> },
        { title: '创建时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
        { title: '支付时间', dataIndex: 'paidAt', width: 160, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
      ]}
    />
  );
}

function AccountRefunds({ account }: { account: AccountDto }) {
  return (
    <DataTable<RefundDto>
      queryKey={accountKeys.refunds(account.projectId, `account-${account.id}`)}
      fetchPage={accountApi.refunds}
      params={{ projectId: account.projectId, userId: account.id }}
      rowKey="id"
      defaultPageSize={10}
      columns={[
        { title: '申请时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
        { title: '金额（元）', dataIndex: 'amountFen', width: 110, align: 'right', render: (v: number) => formatFen(v) },
        { title: '原因', dataIndex: 'reason', width: 160 },
        { title: '状态', dataIndex: 'status', width: 90, render: (v: keyof typeof REFUND_STATUS) => <Tag color={REFUND_COLORS[v]}>{REFUND_STATUS[v]}</Tag> },
        { title: '申请人', dataIndex: 'requestedBy', width: 100 },
        { title: '审批人', dataIndex: 'decidedBy', width: 100 },
      ]}
    />
  );
}

/**
 * The account drawer: balance, deposit, rooms; the money actions (each a confirmed dialog with its own
 * Idempotency-Key); tabs 账户流水 / 订单 / 押金 / 退费. A top-up ends with its printable receipt.
 */
export function AccountDrawer({ accountId, onClose, onEdit }: { accountId: number | null; onClose: () => void; onEdit: (a: AccountDto) => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: accountKeys.detail(accountId), queryFn: () => accountApi.get(accountId!), enabled: accountId !== null });
  const a = q.data;
  const pending = useQuery({
    queryKey: accountKeys.refunds(a?.projectId ?? null, `pending-${accountId}`),
    queryFn: () => accountApi.refunds({ projectId: a!.projectId, userId: a!.id, status: 'pending', pageNo: 1, pageSize: 1 }),
    enabled: !!a,
  }).data?.total ?? 0;
  const [dialog, setDialog] = useState<'topup' | 'online' | 'refund' | 'settle' | null>(null);
  const [deposit, setDeposit] = useState<DepositAction | null>(null);
  const [receipt, setReceipt] = useState<ReceiptDto | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: accountKeys.all });
  const done = () => {
    setDialog(null);
    setDeposit(null);
    void refresh();
  };
  const showReceipt = (entryId: number) => accountApi.receipt(entryId).then(setReceipt, () => undefined);
  const active = a?.status === 'active';

  return (
    <AppDrawer open={accountId !== null} onClose={onClose} width={1000} rootClassName="kv-account-drawer" title={a ? `账户：${a.name}` : '账户'} destroyOnHidden
      extra={a && active ? <Can code="userRegister_n:btn_edit"><Button onClick={() => onEdit(a)}>编辑</Button></Can> : null}>
      {!a ? <Spin /> : (
        <>
          <Row gutter={12} style={{ marginBottom: 12 }}>
            <Col span={6}>
              <Card size="small">
                <div data-testid="account-balance"><Statistic title="预付余额（元）" value={formatFen(a.balanceFen)} styles={{ content: { color: a.balanceFen < 0 ? '#cf1322' : undefined } }} /></div>
                {pending > 0 && <Tag color="orange" data-testid="refund-pending">退费待审批 {pending} 笔</Tag>}
              </Card>
            </Col>
            <Col span={6}><Card size="small"><div data-testid="account-deposit"><Statistic title="押金（元）" value={formatFen(a.depositFen)} /></div></Card></Col>
            <Col span={12}>
              <Card size="small" title="操作" styles={{ body: { paddingTop: 8 } }}>
                {active ? (
                  <Space wrap size={[8, 8]}>
                    <Can code="userRegister_n:topup">
                      <Button type="primary" onClick={() => setDialog('topup')}>充值</Button>
                      <Button onClick={() => setDialog('online')}>在线充值</Button>
                    </Can>
                    <Can code="userRegister_n:refund"><Button onClick={() => setDialog('refund')}>退费</Button></Can>
                    <Can code="devicedeposit:deposit">
                      {(['collect', 'deduct', 'refund'] as const).map((x) => (
                        <Button key={x} onClick={() => setDeposit(x)} disabled={x !== 'collect' && a.depositFen <= 0}>{DEPOSIT_ACTION_LABELS[x]}</Button>
                      ))}
                    </Can>
                    <Can code="userRegister_n:settle"><Button danger onClick={() => setDialog('settle')}>迁出结算</Button></Can>
                  </Space>
                ) : <Typography.Text type="secondary">账户已退户{a.closedAt ? `（${formatDateTime(a.closedAt)}）` : ''}，不能再收付款</Typography.Text>}
              </Card>
            </Col>
          </Row>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }} items={[
            { label: '户名', children: <>{a.name} <Tag>{ACCOUNT_KINDS[a.kind]}</Tag></> },
            { label: '手机号', children: a.phone },
            { label: '状态', children: <Tag color={STATUS_COLORS[a.status]}>{ACCOUNT_STATUS[a.status]}</Tag> },
            { label: '证件号码', children: a.idNumber ?? '—' },
            { label: '入住日期', children: a.moveInDate ?? '—' },
            { label: '用户组', children: a.groupName ?? '—' },
            { label: '房间', span: 3, children: a.rooms.length ? a.rooms.map((r) => <Tag key={r.id}>{r.path || r.name}</Tag>) : '—' },
            ...(a.devices.length ? [{ label: '设备', span: 3, children: a.devices.map((d) => <Tag key={d.id}>{d.name}（{d.code}）</Tag>) }] : []),
            ...(a.remark ? [{ label: '备注', span: 3, children: a.remark }] : []),
          ]} />
          <Tabs items={[
            { key: 'ledger', label: '账户流水', children: <LedgerTable accountId={a.id} book="balance" onReceipt={showReceipt} /> },
            { key: 'orders', label: '订单', children: <AccountOrders account={a} /> },
            { key: 'deposit', label: '押金', children: <LedgerTable accountId={a.id} book="deposit" /> },
            { key: 'refunds', label: '退费', children: <AccountRefunds account={a} /> },
          ]} />
          <TopupDialog account={a} open={dialog === 'topup'} onClose={() => setDialog(null)} onDone={(r) => {
            message.success(`充值成功，余额 ${formatFen(r.balanceFen)} 元`);
            done();
            setReceipt(r.receipt);
          }} />
          <OnlineTopupDialog account={a} open={dialog === 'online'} onClose={() => setDialog(null)} onPaid={() => void refresh()} />
          <RefundDialog account={a} open={dialog === 'refund'} onClose={() => setDialog(null)} onDone={(r) => {
            if (r.status === 'pending') message.warning('退费金额超过审批金额，已提交，待审批');
            else message.success(`退费成功，余额 ${formatFen(r.balanceFen)} 元`);
            done();
          }} />
          <DepositDialog account={a} action={deposit} onClose={() => setDeposit(null)} onDone={(r) => {
            message.success(`${deposit ? DEPOSIT_ACTION_LABELS[deposit] : ''}成功，押金 ${formatFen(r.depositFen)} 元`);
            done();
          }} />
          <SettleDialog account={a} open={dialog === 'settle'} onClose={() => setDialog(null)} onDone={(r) => {
            message.success(`结算完成：退还余额 ${formatFen(r.refundedBalanceFen)} 元，退还押金 ${formatFen(r.refundedDepositFen)} 元，账户已退户`);
            done();
          }} />
          <ReceiptModal receipt={receipt} onClose={() => setReceipt(null)} />
        </>
      )}
    </AppDrawer>
  );
}

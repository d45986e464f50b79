import { useState } from 'react';
import { Alert, App, Button, Descriptions, Form, Input, QRCode, Select, Skeleton, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  amountInWords, ORDER_STATUS, TOPUP_METHODS, type AccountDto, type DepositAction, type MoneyMoveResult, type RefundResult,
  type OrderDto, type SettlementResult, type TopupResult, type TopupMethod,
} from '@kelvin/contracts';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can, PreventClickButton } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { formatFen, parseYuan } from '../money';
import { fenOf, MoneyDialog, YuanInput, yuanRule } from './money-dialog';

/** The project's limits (userPayFeeUpper), read quietly: without the right to read them the server still enforces them. */
export function useMoneySettings(projectId: number | null) {
  return useQuery({
    queryKey: accountKeys.settings(projectId),
    queryFn: () => accountApi.settings(projectId!, true),
    enabled: projectId !== null,
    retry: false,
  });
}

const words = (fen: number) => `${formatFen(fen)} 元（${amountInWords(fen)}）`;
const Who = ({ a }: { a: AccountDto }) => <>{a.name}{a.rooms.length ? `（${a.rooms.map((r) => r.name).join('、')}）` : ''}</>;

function AccountFigures({ a }: { a: AccountDto }) {
  return (
    <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }} items={[
      { label: '账户', children: <Who a={a} />, span: 2 },
      { label: '余额', children: `${formatFen(a.balanceFen)} 元` },
      { label: '押金', children: `${formatFen(a.depositFen)} 元` },
    ]} />
  );
}

type TopupValues = { amount: string; method: TopupMethod; remark?: string };

/** 充值: amount in 元 (≤ the single top-up limit and the balance limit), method; then the receipt. */
export function TopupDialog({ account, open, onClose, onDone }: { account: AccountDto; open: boolean; onClose: () => void; onDone: (r: TopupResult) => void }) {
  const [form] = Form.useForm<TopupValues>();
  const settings = useMoneySettings(account.projectId).data;
  const room = settings?.balanceMaxFen != null ? Math.max(0, settings.balanceMaxFen - account.balanceFen) : null;
  const max = [settings?.topupMaxFen, room].filter((x): x is number => x !== null && x !== undefined).reduce<number | null>((m, x) => (m === null ? x : Math.min(m, x)), null);
  return (
    <MoneyDialog<TopupValues, TopupResult> open={open} title="充值" okText="充值" form={form} initialValues={{ method: 'cash' }}
      extra={<AccountFigures a={account} />}
      confirm={(v) => <>向 <b><Who a={account} /></b> 充值 <b>{words(fenOf(v.amount))}</b>，方式：{TOPUP_METHODS[v.method]}？</>}
      submit={(v, key) => accountApi.topup(account.id, { amountFen: fenOf(v.amount), method: v.method, remark: v.remark?.trim() || undefined }, key)}
      onDone={(r) => onDone(r)} onClose={onClose}>
      <Form.Item name="amount" label="充值金额" rules={[yuanRule(max, '充值金额')]}
        extra={[
          settings?.topupMaxFen != null ? `单次充值上限 ${formatFen(settings.topupMaxFen)} 元` : null,
          settings?.balanceMaxFen != null ? `余额上限 ${formatFen(settings.balanceMaxFen)} 元` : null,
        ].filter(Boolean).join('，') || undefined}>
        <YuanInput autoFocus />
      </Form.Item>
      <AmountWords name="amount" />
      <Form.Item name="method" label="充值方式" rules={[{ required: true, message: '请选择充值方式' }]}>
        <Select options={(['cash', 'bank'] as const).map((value) => ({ value, label: TOPUP_METHODS[value] }))} />
      </Form.Item>
      <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 个字符' }]}><Input maxLength={200} placeholder="如 银行流水号" /></Form.Item>
    </MoneyDialog>
  );
}

/** the 大写 of what is typed, as it will appear on the receipt */
export function AmountWords({ name }: { name: string }) {
  const value = Form.useWatch(name) as string | undefined;
  const r = parseYuan(value);
  return r.ok ? <Typography.Paragraph type="secondary" style={{ marginTop: -12 }} data-testid="amount-words">大写：{amountInWords(r.fen)}</Typography.Paragraph> : null;
}

type RefundValues = { amount: string; reason: string };

/** 退费: amount (≤ balance) and reason; above the project's approval amount it waits for a second user (待审批). */
export function RefundDialog({ account, open, onClose, onDone }: { account: AccountDto; open: boolean; onClose: () => void; onDone: (r: RefundResult) => void }) {
  const [form] = Form.useForm<RefundValues>();
  const settings = useMoneySettings(account.projectId).data;
  const approval = settings?.refundApprovalFen;
  return (
    <MoneyDialog<RefundValues, RefundResult> open={open} title="退费" okText="退费" danger form={form}
      extra={<>
        <AccountFigures a={account} />
        {approval !== undefined && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={approval === 0 ? '每笔退费都需另一位有审批权限的用户审批' : `退费超过 ${formatFen(approval)} 元需另一位有审批权限的用户审批（待审批期间余额不变）`} />}
      </>}
      confirm={(v) => {
        const fen = fenOf(v.amount);
        return <>从 <b><Who a={account} /></b> 的余额退费 <b>{words(fen)}</b>？{approval !== undefined && fen > approval ? '（超过审批金额，提交后待审批）' : ''}</>;
      }}
      submit={(v, key) => accountApi.refund(account.id, { amountFen: fenOf(v.amount), reason: v.reason.trim() }, key)}
      onDone={(r) => onDone(r)} onClose={onClose}>
      <Form.Item name="amount" label="退费金额" rules={[yuanRule(Math.max(0, account.balanceFen), '退费金额')]} extra={`最多可退 ${formatFen(Math.max(0, account.balanceFen))} 元`}>
        <YuanInput autoFocus />
      </Form.Item>
      <AmountWords name="amount" />
      <Form.Item name="reason" label="退费原因" rules={[{ required: true, whitespace: true, message: '请填写退费原因' }, { max: 200, message: '退费原因最多 200 个字符' }]}>
        <Input.TextArea rows={2} maxLength={200} placeholder="如 用户申请退回多缴费用" />
      </Form.Item>
    </MoneyDialog>
  );
}

export const DEPOSIT_ACTION_LABELS: Record<DepositAction, string> = { collect: '收押金', deduct: '扣押金', refund: '退押金' };
type DepositValues = { amount: string; reason: string; roomId?: number };

/** 收押金 / 扣押金 (damage, arrears — with the reason) / 退押金: the deposit book, separate from the balance. */
export function DepositDialog({ account, action, onClose, onDone }: { account: AccountDto; action: DepositAction | null; onClose: () => void; onDone: (r: MoneyMoveResult) => void }) {
  const [form] = Form.useForm<DepositValues>();
  const label = action ? DEPOSIT_ACTION_LABELS[action] : '';
  const max = action && action !== 'collect' ? account.depositFen : null;
  return (
    <MoneyDialog<DepositValues, MoneyMoveResult> open={!!action} title={label} okText={label} danger={action === 'deduct'} form={form}
      initialValues={{ reason: action === 'collect' ? '入住押金' : action === 'refund' ? '退还押金' : '', roomId: account.rooms[0]?.id }}
      extra={<AccountFigures a={account} />}
      confirm={(v) => <>{label}：<b><Who a={account} /></b> <b>{words(fenOf(v.amount))}</b>？</>}
      submit={(v, key) => accountApi.deposit(action!, { accountId: account.id, amountFen: fenOf(v.amount), reason: v.reason.trim(), roomId: v.roomId }, key)}
      onDone={(r) => onDone(r)} onClose={onClose}>
      <Form.Item name="amount" label="金额" rules={[yuanRule(max, '金额')]} extra={max !== null ? `现有押金 ${formatFen(max)} 元` : undefined}><YuanInput autoFocus /></Form.Item>
      <AmountWords name="amount" />
      {account.rooms.length > 0 && (
        <Form.Item name="roomId" label="房间"><Select allowClear options={account.rooms.map((r) => ({ value: r.id, label: r.path || r.name }))} /></Form.Item>
      )}
      <Form.Item name="reason" label={action === 'deduct' ? '扣除原因' : '说明'} rules={[{ required: true, whitespace: true, message: action === 'deduct' ? '请填写扣除原因（如 损坏赔偿、欠费抵扣）' : '请填写说明' }, { max: 200, message: '最多 200 个字符' }]}>
        <Input maxLength={200} placeholder={action === 'deduct' ? '如 损坏赔偿、欠费抵扣' : undefined} />
      </Form.Item>
    </MoneyDialog>
  );
}

type SettleValues = { deduct?: string; reason: string };

/**
 * 迁出结算 (leave-charge check and clean): everything the account owes and holds on one screen, then one settlement
 * that refunds the balance and the deposit (less a deduction) and closes the account.
 */
export function SettleDialog({ account, open, onClose, onDone }: { account: AccountDto; open: boolean; onClose: () => void; onDone: (r: SettlementResult) => void }) {
  const [form] = Form.useForm<SettleValues>();
  const preview = useQuery({ queryKey: accountKeys.leave(account.id), queryFn: () => accountApi.leaveCheck(account.id), enabled: open, staleTime: 0, gcTime: 0 });
  const p = preview.data;
  const deductText = Form.useWatch('deduct', form);
  const deduct = deductText ? (parseYuan(deductText).ok ? fenOf(deductText) : 0) : 0;
  const blocked = !!p && (p.pendingOrders.length > 0 || p.pendingRefunds > 0);
  return (
    <MoneyDialog<SettleValues, SettlementResult> open={open} title="迁出结算" okText="确认结算" danger width={720} form={form} okDisabled={!p || blocked} initialValues={{ reason: '退户结算' }}
      extra={!p ? <Skeleton active /> : (
        <>
          <Descriptions size="small" column={2} bordered style={{ marginBottom: 12 }} data-testid="settlement" styles={{ label: { width: 110, whiteSpace: 'nowrap' } }} items={[
            { label: '账户', children: <Who a={account} />, span: 2 },
            { label: '预付余额', children: `${formatFen(p.balanceFen)} 元` },
            { label: '未出账用量', children: <>{formatFen(p.unbilledFen)} 元{p.unbilledNote ? <Typography.Text type="secondary">（{p.unbilledNote}）</Typography.Text> : null}</> },
            { label: '押金', children: `${formatFen(p.depositFen)} 元` },
            { label: '扣除押金', children: `${formatFen(deduct)} 元` },
            { label: '待支付订单', children: `${p.pendingOrders.length} 笔` },
            { label: '待审批退费', children: `${p.pendingRefunds} 笔` },
            { label: p.netFen - deduct >= 0 ? '应退给用户' : '用户应补缴', span: 2, children: <b data-testid="settlement-net">{formatFen(Math.abs(p.netFen - deduct))} 元</b> },
          ]} />
          {p.pendingOrders.length > 0 && (
            <Table size="small" rowKey="id" pagination={false} style={{ marginBottom: 12 }} dataSource={p.pendingOrders} columns={[
              { title: '订单号', dataIndex: 'orderNo' }, { title: '金额（元）', dataIndex: 'amountFen', render: (v: number) => formatFen(v) },
              { title: '状态', dataIndex: 'status', render: (v: keyof typeof ORDER_STATUS) => ORDER_STATUS[v] }, { title: '创建时间', dataIndex: 'createdAt', render: (v: number) => formatDateTime(v) },
            ]} />
          )}
          {blocked && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="还有待支付订单或待审批退费，请先关闭订单、处理退费后再结算" />}
        </>
      )}
      confirm={() => <>结算后账户 <b><Who a={account} /></b> 将退户关闭，{p && (p.netFen - deduct >= 0 ? `退给用户 ${words(p.netFen - deduct)}` : `用户应补缴 ${words(deduct - p.netFen)}`)}，房间释放给下一位住户。此操作不可撤销。</>}
      submit={(v, key) => accountApi.leaveClean(account.id, { depositDeductFen: v.deduct ? fenOf(v.deduct) : 0, reason: v.reason.trim(), expectedNetFen: p?.netFen }, key)}
      onDone={(r) => onDone(r)} onClose={onClose}>
      <Form.Item name="deduct" label="扣除押金（元，可不填）" rules={[{ validator: async (_r, v: string | undefined) => { if (v && v.trim()) { const r = parseYuan(v); if (!r.ok) throw new Error(r.message); if (p && r.fen > p.depositFen) throw new Error(`扣除金额不能超过押金 ${formatFen(p.depositFen)} 元`); } } }]}>
        <YuanInput placeholder="损坏赔偿、欠费抵扣时填写" />
      </Form.Item>
      <Form.Item name="reason" label="结算说明" rules={[{ required: true, whitespace: true, message: '请填写结算说明' }, { max: 200, message: '最多 200 个字符' }]}><Input maxLength={200} /></Form.Item>
    </MoneyDialog>
  );
}

/**
 * 在线充值: an order through the project's payment provider (its QR code to scan); the ledger is credited when the
 * provider's signed notification arrives — with the sandbox provider, 模拟支付 plays the payer and the callback.
 */
export function OnlineTopupDialog({ account, open, onClose, onPaid }: { account: AccountDto; open: boolean; onClose: () => void; onPaid: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ amount: string }>();
  const [order, setOrder] = useState<OrderDto | null>(null);
  const [paying, setPaying] = useState(false);
  const settings = useMoneySettings(account.projectId).data;
  const close = () => {
    setOrder(null);
    onClose();
  };
  const pay = async () => {
    if (!order) return;
    setPaying(true);
    try {
      const r = await accountApi.sandboxPay(order.orderNo);
      setOrder({ ...order, status: r.status, entryId: r.entryId });
      if (r.status === 'paid') {
        message.success(`支付成功，已入账 ${formatFen(order.amountFen)} 元`);
        onPaid();
      }
    } catch {
      // the HTTP client showed the reason
    } finally {
      setPaying(false);
    }
  };
  return (
    <>
      <MoneyDialog<{ amount: string }, OrderDto> open={open && !order} title="在线充值" okText="生成支付二维码" form={form}
        extra={<AccountFigures a={account} />}
        confirm={(v) => <>为 <b><Who a={account} /></b> 生成 <b>{words(fenOf(v.amount))}</b> 的在线支付订单？</>}
        submit={(v, key) => accountApi.createOrder(account.id, fenOf(v.amount), key)}
        onDone={(o) => setOrder(o)} onClose={close}>
        <Form.Item name="amount" label="充值金额" rules={[yuanRule(settings?.topupMaxFen, '充值金额')]}><YuanInput autoFocus /></Form.Item>
        <AmountWords name="amount" />
      </MoneyDialog>
      <AppModal open={!!order} title="扫码支付" width={420} onCancel={close} footer={[
        <Button key="c" onClick={close}>{order?.status === 'paid' ? '完成' : '关闭'}</Button>,
        order?.status === 'created' && order.provider === 'sandbox' && (
          <Can key="pay" code="userRegister_n:topup"><PreventClickButton type="primary" loading={paying} onClick={pay}>模拟支付（沙箱）</PreventClickButton></Can>
        ),
      ]}>
        {order && (
          <Space orientation="vertical" align="center" style={{ width: '100%' }}>
            {order.qrPayload && order.status === 'created' ? <QRCode value={order.qrPayload} size={200} /> : null}
            <Typography.Text>订单号 {order.orderNo}</Typography.Text>
            <Typography.Title level={4} style={{ margin: 0 }}>{formatFen(order.amountFen)} 元</Typography.Title>
            <Typography.Text type={order.status === 'paid' ? 'success' : 'secondary'}>{ORDER_STATUS[order.status]}</Typography.Text>
          </Space>
        )}
      </AppModal>
    </>
  );
}

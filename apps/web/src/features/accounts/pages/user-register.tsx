import { useState } from 'react';
import { Alert, App, Button, Form, Input, Space, Table, Tabs, Tag, Typography } from 'antd';
import { ImportOutlined, PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ACCOUNT_KINDS, ACCOUNT_STATUS, BALANCE_EVENT_KINDS, ORDER_STATUS, RECONCILE_ISSUES, REFUND_STATUS, type AccountDto, type BalanceEventDto,
  type OrderDto, type ReconcileResult, type RefundDto,
} from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { ImportDialog } from '../../../components/import-dialog';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can, PreventClickButton, useAppModal } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { AccountDrawer, ORDER_COLORS, REFUND_COLORS, STATUS_COLORS } from '../components/account-drawer';
import { RegisterDialog } from '../components/register-dialog';
import { formatFen } from '../money';

const statusOptions = Object.entries(ACCOUNT_STATUS).map(([value, label]) => ({ value, label }));

/**
 * userRegister_n (用户登记): the accounts of the project (who pays, for which rooms, balance and deposit), with the
 * account drawer for money; refunds waiting for approval, the return-record list, online orders, balance events and
 * 核对账目 as tabs.
 */
export default function UserRegisterPage() {
  const projectId = useProjectId();
  const [tab, setTab] = useState('accounts');
  if (projectId === null) return <NoProject title="用户登记" />;
  return (
    <PageContainer title="用户登记">
      <Tabs activeKey={tab} onChange={setTab} destroyOnHidden items={[
        { key: 'accounts', label: '用户登记', children: <AccountList projectId={projectId} /> },
        { key: 'approvals', label: '退费审批', children: <RefundList projectId={projectId} approvals /> },
        { key: 'refunds', label: '退费记录', children: <RefundList projectId={projectId} /> },
        { key: 'orders', label: '支付订单', children: <OrderList projectId={projectId} /> },
        { key: 'events', label: '余额预警', children: <BalanceEvents projectId={projectId} /> },
        { key: 'reconcile', label: '核对账目', children: <Reconcile projectId={projectId} /> },
      ]} />
    </PageContainer>
  );
}

function AccountList({ projectId }: { projectId: number }) {
  const [editing, setEditing] = useState<AccountDto | 'new' | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [importing, setImporting] = useState(false);
  const qc = useQueryClient();
  return (
    <>
      <DataTable<AccountDto>
        queryKey={accountKeys.list(projectId)}
        fetchPage={accountApi.list}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'keyword', label: '户名/手机/房间', placeholder: '姓名、手机号或房间', width: 200 },
          { name: 'status', label: '状态', kind: 'select', width: 120, options: statusOptions },
        ]}
        toolbar={(
          <Can code="userRegister_n:btn_add">
            <Space>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button>
              <Button icon={<ImportOutlined />} onClick={() => setImporting(true)}>导入</Button>
            </Space>
          </Can>
        )}
        exportUrl="/api/v1/account/export"
        exportCode="userRegister_n:export"
        columns={[
          {
            title: '户名', dataIndex: 'name', width: 180, render: (_, a) => (
              <span><Button type="link" style={{ padding: 0 }} onClick={() => setOpenId(a.id)}>{a.name}</Button>{a.kind === 'company' ? <Tag style={{ marginLeft: 4 }}>{ACCOUNT_KINDS.company}</Tag> : null}</span>
            ),
          },
          { title: '手机号', dataIndex: 'phone', width: 120 },
          { title: '房间', key: 'rooms', width: 200, render: (_, a) => (a.rooms.length ? a.rooms.map((r) => r.name).join('、') : '—') },
          { title: '余额（元）', dataIndex: 'balanceFen', width: 110, align: 'right', render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : undefined}>{formatFen(v)}</Typography.Text> },
          { title: '押金（元）', dataIndex: 'depositFen', width: 100, align: 'right', render: (v: number) => formatFen(v) },
          { title: '用户组', dataIndex: 'groupName', width: 110 },
          { title: '入住日期', dataIndex: 'moveInDate', width: 100 },
          { title: '状态', dataIndex: 'status', width: 80, render: (v: keyof typeof ACCOUNT_STATUS) => <Tag color={STATUS_COLORS[v]}>{ACCOUNT_STATUS[v]}</Tag> },
          {
            title: '操作', key: 'op', width: 110, fixed: 'right', render: (_, a) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => setOpenId(a.id)}>账户</Button>
                {a.status === 'active' && <Can code="userRegister_n:btn_edit"><Button type="link" size="small" onClick={() => setEditing(a)}>编辑</Button></Can>}
              </Space>
            ),
          },
        ]}
        scrollX={1100}
      />
      <RegisterDialog projectId={projectId} editing={editing} onClose={() => setEditing(null)} onSaved={(id) => {
        const isNew = editing === 'new';
        setEditing(null);
        if (isNew) setOpenId(id);
      }} />
      <AccountDrawer accountId={openId} onClose={() => setOpenId(null)} onEdit={(a) => setEditing(a)} />
      <ImportDialog open={importing} title="导入用户登记" onClose={() => setImporting(false)}
        downloadTemplate={accountApi.importTemplate}
        upload={(file) => accountApi.importFile(projectId, file)}
        describe={(r) => `导入成功：共 ${r.rows} 行，新增 ${r.created} 个账户`}
        onDone={() => void qc.invalidateQueries({ queryKey: accountKeys.all })} />
    </>
  );
}

/** 退费审批 (pending refunds, approved or rejected by a user other than the requester) and 退费记录 (return records). */
function RefundList({ projectId, approvals = false }: { projectId: number; approvals?: boolean }) {
  const { message } = App.useApp();
  const modal = useAppModal();
  const qc = useQueryClient();
  const [deciding, setDeciding] = useState<{ r: RefundDto; approve: boolean } | null>(null);
  const [form] = Form.useForm<{ comment?: string }>();
  const decide = useMutation({
    mutationFn: (v: { r: RefundDto; approve: boolean; comment?: string }) => (v.approve ? accountApi.approveRefund(v.r.id, v.comment) : accountApi.rejectRefund(v.r.id, v.comment)),
    onSuccess: (r, v) => {
      message.success(r.status === 'done' ? `已批准，已退费 ${formatFen(v.r.amountFen)} 元` : '已驳回');
      setDeciding(null);
      void qc.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
  const go = () => form.validateFields().then((v) => {
    if (!deciding) return;
    const { r, approve } = deciding;
    modal.confirm({
      title: '请确认',
      content: approve ? `批准向 ${r.accountName} 退费 ${formatFen(r.amountFen)} 元？批准后立即从余额退出。` : `驳回 ${r.accountName} 的退费申请（${formatFen(r.amountFen)} 元）？`,
      okButtonProps: { danger: !approve },
      onOk: () => decide.mutate({ r, approve, comment: v.comment?.trim() || undefined }),
    });
  }, () => undefined);
  return (
    <>
      {approvals && <Alert type="info" showIcon style={{ marginBottom: 12 }} message="超过审批金额的退费在此审批：须由申请人以外、有「退费审批」权限的用户批准后才从余额退出。" />}
      <DataTable<RefundDto>
        queryKey={accountKeys.refunds(projectId, approvals ? 'pending' : undefined)}
        fetchPage={accountApi.refunds}
        params={{ projectId, ...(approvals ? { status: 'pending' } : {}) }}
        rowKey="id"
        filters={[
          { name: 'date', label: '申请日期', kind: 'dateRange', rangeNames: ['startDate', 'endDate'], rangeFormat: 'date' },
          { name: 'phone', label: '手机号', width: 150 },
          { name: 'userId', label: '账户编号', width: 120 },
          ...(approvals ? [] : [{ name: 'status', label: '状态', kind: 'select' as const, width: 120, options: Object.entries(REFUND_STATUS).map(([value, label]) => ({ value, label })) }]),
        ]}
        exportUrl={approvals ? undefined : '/api/v1/account/refund/export'}
        exportCode="userRegister_n:export"
        columns={[
          { title: '申请时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
          { title: '账户', dataIndex: 'accountName', width: 140 },
          { title: '手机号', dataIndex: 'phone', width: 130 },
          { title: '退费金额（元）', dataIndex: 'amountFen', width: 130, align: 'right', render: (v: number) => formatFen(v) },
          { title: '原因', dataIndex: 'reason', width: 180 },
          { title: '状态', dataIndex: 'status', width: 90, render: (v: keyof typeof REFUND_STATUS) => <Tag color={REFUND_COLORS[v]}>{REFUND_STATUS[v]}</Tag> },
          { title: '申请人', dataIndex: 'requestedBy', width: 100 },
          ...(approvals ? [] : [{
            title: '审批', key: 'decided', width: 200,
            render: (_: unknown, r: RefundDto) => (r.decidedBy ? <span>{r.decidedBy} {r.decidedAt ? formatDateTime(r.decidedAt, 'MM-DD HH:mm') : ''}{r.decisionComment ? <><br /><Typography.Text type="secondary">{r.decisionComment}</Typography.Text></> : null}</span> : '—'),
          }]),
          ...(approvals ? [{
            title: '操作', key: 'op', width: 130, fixed: 'right' as const, render: (_: unknown, r: RefundDto) => (
              <Can code="userRegister_n:refund_approve">
                <Space size={4}>
                  <Button type="link" size="small" onClick={() => { form.resetFields(); setDeciding({ r, approve: true }); }}>批准</Button>
                  <Button type="link" size="small" danger onClick={() => { form.resetFields(); setDeciding({ r, approve: false }); }}>驳回</Button>
                </Space>
              </Can>
            ),
          }] : []),
        ]}
        scrollX={1100}
      />
      <AppModal open={!!deciding} title={deciding?.approve ? '批准退费' : '驳回退费'} onCancel={() => setDeciding(null)} footer={[
        <Button key="c" onClick={() => setDeciding(null)}>取消</Button>,
        <PreventClickButton key="ok" type="primary" danger={!deciding?.approve} loading={decide.isPending} onClick={go}>{deciding?.approve ? '批准' : '驳回'}</PreventClickButton>,
      ]}>
        {deciding && <Typography.Paragraph>{deciding.r.accountName}：退费 <b>{formatFen(deciding.r.amountFen)} 元</b>，原因：{deciding.r.reason}（申请人 {deciding.r.requestedBy ?? '—'}）</Typography.Paragraph>}
        <Form form={form} layout="vertical">
          <Form.Item name="comment" label="审批意见" rules={[{ max: 200, message: '审批意见最多 200 个字符' }]}><Input.TextArea rows={2} maxLength={200} /></Form.Item>
        </Form>
      </AppModal>
    </>
  );
}

/** 支付订单 (deviceWxOrder): online top-up orders with their status; an unpaid one can be closed. */
function OrderList({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const close = useMutation({
    mutationFn: (id: number) => accountApi.closeOrder(id),
    onSuccess: () => {
      message.success('订单已关闭');
      void qc.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
  const modal = useAppModal();
  return (
    <DataTable<OrderDto>
      queryKey={accountKeys.orders(projectId)}
      fetchPage={accountApi.orders}
      params={{ projectId }}
      rowKey="id"
      filters={[
        { name: 'orderNo', label: '订单号', width: 200 },
        { name: 'status', label: '状态', kind: 'select', width: 120, options: Object.entries(ORDER_STATUS).map(([value, label]) => ({ value, label })) },
        { name: 'time', label: '创建日期', kind: 'dateRange', rangeNames: ['startTime', 'endTime'] },
      ]}
      columns={[
        { title: '订单号', dataIndex: 'orderNo', width: 210 },
        { title: '账户', dataIndex: 'accountName', width: 140 },
        { title: '金额（元）', dataIndex: 'amountFen', width: 110, align: 'right', render: (v: number) => formatFen(v) },
        { title: '状态', dataIndex: 'status', width: 90, render: (v: keyof typeof ORDER_STATUS) => <Tag color={ORDER_COLORS[v]}>{ORDER_STATUS[v]}</Tag> },
        { title: '支付渠道', dataIndex: 'provider', width: 100, render: (v: string) => (v === 'wechat' ? '微信支付' : '沙箱') },
        { title: '渠道流水号', dataIndex: 'providerTxnId', width: 200 },
        { title: '入账流水', dataIndex: 'entryId', width: 90 },
        { title: '创建时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
        { title: '支付时间', dataIndex: 'paidAt', width: 160, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
        {
          title: '操作', key: 'op', width: 90, fixed: 'right', render: (_, o) => (o.status === 'created' ? (
            <Can code="userRegister_n:topup">
              <Button type="link" size="small" danger onClick={() => modal.confirm({ title: '关闭订单', content: `关闭订单 ${o.orderNo}（${formatFen(o.amountFen)} 元）？关闭后不能再支付。`, okButtonProps: { danger: true }, onOk: () => close.mutate(o.id) })}>关闭</Button>
            </Can>
          ) : null),
        },
      ]}
      scrollX={1500}
    />
  );
}

function BalanceEvents({ projectId }: { projectId: number }) {
  return (
    <DataTable<BalanceEventDto>
      queryKey={accountKeys.events(projectId)}
      fetchPage={accountApi.balanceEvents}
      params={{ projectId }}
      rowKey="id"
      filters={[{ name: 'kind', label: '事件', kind: 'select', width: 140, options: Object.entries(BALANCE_EVENT_KINDS).map(([value, label]) => ({ value, label })) }]}
      columns={[
        { title: '时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
        { title: '账户', dataIndex: 'accountName', width: 160 },
        { title: '事件', dataIndex: 'kind', width: 110, render: (v: keyof typeof BALANCE_EVENT_KINDS) => <Tag color={v === 'cutoff' ? 'red' : v === 'reconnect' ? 'green' : 'orange'}>{BALANCE_EVENT_KINDS[v]}</Tag> },
        { title: '当时余额（元）', dataIndex: 'balanceFen', width: 130, align: 'right', render: (v: number) => formatFen(v) },
        { title: '流水编号', dataIndex: 'entryId', width: 100 },
      ]}
    />
  );
}

/** 核对账目: recompute every balance and deposit from the ledger and match paid orders with entries; lists what does not agree. */
function Reconcile({ projectId }: { projectId: number }) {
  const [result, setResult] = useState<ReconcileResult | null>(null);
  const run = useMutation({ mutationFn: () => accountApi.reconcile(projectId), onSuccess: setResult });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        核对账目：用流水重新计算每个账户的余额和押金，与账户上的金额比对；并核对在线支付订单与入账流水是否一一对应。
      </Typography.Paragraph>
      <Can code="userRegister_n:reconcile" fallback={<Alert type="warning" showIcon message="没有「核对账目」权限" />}>
        <Button type="primary" icon={<SafetyCertificateOutlined />} loading={run.isPending} onClick={() => run.mutate()}>核对账目</Button>
      </Can>
      {result && (result.rows.length === 0
        ? <Alert type="success" showIcon data-testid="reconcile-ok" message={`账目相符：核对 ${result.checkedAccounts} 个账户、${result.checkedOrders} 笔订单，没有差异（${formatDateTime(result.at)}）`} />
        : (
          <>
            <Alert type="error" showIcon message={`发现 ${result.rows.length} 处不符（核对 ${result.checkedAccounts} 个账户、${result.checkedOrders} 笔订单，${formatDateTime(result.at)}）`} />
            <Table size="small" rowKey={(r) => `${r.issue}-${r.accountId}-${r.orderId}-${r.entryId}`} dataSource={result.rows} pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 条` }} columns={[
              { title: '问题', dataIndex: 'issue', render: (v: keyof typeof RECONCILE_ISSUES) => <Tag color="red">{RECONCILE_ISSUES[v]}</Tag> },
              { title: '账户', dataIndex: 'accountName', render: (v: string | null) => v ?? '—' },
              { title: '订单号', dataIndex: 'orderNo', render: (v: string | null) => v ?? '—' },
              { title: '流水编号', dataIndex: 'entryId', render: (v: number | null) => v ?? '—' },
              { title: '应为（元）', dataIndex: 'expectedFen', align: 'right', render: (v: number) => formatFen(v) },
              { title: '实际（元）', dataIndex: 'actualFen', align: 'right', render: (v: number) => formatFen(v) },
              { title: '差额（元）', key: 'diff', align: 'right', render: (_, r) => formatFen(r.actualFen - r.expectedFen) },
            ]} />
          </>
        ))}
    </Space>
  );
}

import { useState } from 'react';
import { App, Button, Space, Tabs, Tag } from 'antd';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ACCOUNT_STATUS, LEDGER_KINDS, type AccountDto, type DepositAction, type LedgerEntryDto } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { MENU_BY_CODE } from '@kelvin/contracts/menus';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { Signed, STATUS_COLORS } from '../components/account-drawer';
import { DEPOSIT_ACTION_LABELS, DepositDialog } from '../components/money-actions';
import { formatFen } from '../money';

/**
 * devicedeposit (设备押金), depositManage and depositManage_n (押金管理, deposit-based projects): the deposit each
 * account holds for its rooms and devices — collect, deduct (damage, arrears, with a reason), refund — and the
 * deposit ledger. The deposit is a book of its own, apart from the prepaid balance.
 */
export default function DepositManagePage() {
  const { pathname } = useLocation();
  const code = pathname.split('/').filter(Boolean).at(-1) ?? 'devicedeposit';
  const title = MENU_BY_CODE.get(code)?.title ?? '押金管理';
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [acting, setActing] = useState<{ a: AccountDto; action: DepositAction } | null>(null);
  if (projectId === null) return <NoProject title={title} />;
  return (
    <PageContainer title={title}>
      <Tabs destroyOnHidden items={[
        {
          key: 'accounts', label: '账户押金', children: (
            <DataTable<AccountDto>
              queryKey={[...accountKeys.list(projectId), 'deposit']}
              fetchPage={accountApi.list}
              params={{ projectId }}
              rowKey="id"
              filters={[
                { name: 'keyword', label: '户名/手机/房间', placeholder: '姓名、手机号或房间', width: 200 },
                { name: 'status', label: '状态', kind: 'select', width: 120, options: Object.entries(ACCOUNT_STATUS).map(([value, label]) => ({ value, label })) },
              ]}
              columns={[
                { title: '户名', dataIndex: 'name', width: 160 },
                { title: '手机号', dataIndex: 'phone', width: 130 },
                { title: '房间', key: 'rooms', width: 220, render: (_, a) => (a.rooms.length ? a.rooms.map((r) => r.name).join('、') : '—') },
                { title: '押金（元）', dataIndex: 'depositFen', width: 120, align: 'right', render: (v: number) => formatFen(v) },
                { title: '余额（元）', dataIndex: 'balanceFen', width: 120, align: 'right', render: (v: number) => formatFen(v) },
                { title: '状态', dataIndex: 'status', width: 80, render: (v: keyof typeof ACCOUNT_STATUS) => <Tag color={STATUS_COLORS[v]}>{ACCOUNT_STATUS[v]}</Tag> },
                {
                  title: '操作', key: 'op', width: 200, fixed: 'right', render: (_, a) => (a.status === 'active' ? (
                    <Can code={`${code}:deposit`}>
                      <Space size={4}>
                        {(['collect', 'deduct', 'refund'] as const).map((x) => (
                          <Button key={x} type="link" size="small" danger={x === 'deduct'} disabled={x !== 'collect' && a.depositFen <= 0} onClick={() => setActing({ a, action: x })}>{DEPOSIT_ACTION_LABELS[x]}</Button>
                        ))}
                      </Space>
                    </Can>
                  ) : null),
                },
              ]}
              scrollX={1100}
            />
          ),
        },
        {
          key: 'ledger', label: '押金流水', children: (
            <DataTable<LedgerEntryDto>
              queryKey={accountKeys.chargelog(projectId, 'deposit')}
              fetchPage={accountApi.chargelog}
              params={{ projectId, book: 'deposit' }}
              rowKey="id"
              filters={[
                { name: 'phone', label: '手机号', width: 150 },
                { name: 'kind', label: '类型', kind: 'select', width: 130, options: (['deposit_collect', 'deposit_deduct', 'deposit_refund'] as const).map((value) => ({ value, label: LEDGER_KINDS[value] })) },
                { name: 'time', label: '时间', kind: 'dateRange', rangeNames: ['startTime', 'endTime'] },
              ]}
              columns={[
                { title: '时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
                { title: '账户', dataIndex: 'accountName', width: 140 },
                { title: '类型', dataIndex: 'kind', width: 100, render: (v: keyof typeof LEDGER_KINDS) => LEDGER_KINDS[v] },
                { title: '金额（元）', dataIndex: 'amountFen', width: 110, align: 'right', render: (v: number) => <Signed fen={v} /> },
                { title: '押金余额（元）', dataIndex: 'balanceAfterFen', width: 130, align: 'right', render: (v: number) => formatFen(v) },
                { title: '说明', dataIndex: 'reason', width: 180 },
                { title: '经办人', dataIndex: 'actorName', width: 100 },
              ]}
            />
          ),
        },
      ]} />
      {acting && (
        <DepositDialog account={acting.a} action={acting.action} onClose={() => setActing(null)} onDone={(r) => {
          message.success(`${DEPOSIT_ACTION_LABELS[acting.action]}成功，押金 ${formatFen(r.depositFen)} 元`);
          setActing(null);
          void qc.invalidateQueries({ queryKey: accountKeys.all });
        }} />
      )}
    </PageContainer>
  );
}

import { useRef, useState } from 'react';
import { Alert, App, Button, Form, Input, Radio, Select, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { amountInWords, type DepositBatchDto, type DepositDirectBody, type DepositDirectResult, type DepositDirectRow, type LedgerEntryDto } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can, PreventClickButton } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { AccountSelect } from '../components/account-select';
import { AmountWords } from '../components/money-actions';
import { fenOf, MoneyDialog, YuanInput, yuanRule } from '../components/money-dialog';
import { formatFen } from '../money';

type Values = { by: 'accounts' | 'group'; accountIds?: number[]; groupId?: number; amount: string; reason: string };

/** The entries one batch credited (the expanded row). */
function BatchEntries({ batchKey }: { batchKey: string }) {
  const q = useQuery({ queryKey: accountKeys.depositBatch(batchKey), queryFn: () => accountApi.depositBatch(batchKey) });
  return (
    <Table<LedgerEntryDto> size="small" rowKey="id" loading={q.isFetching} dataSource={q.data ?? []} pagination={false} columns={[
      { title: '账户', dataIndex: 'accountName' },
      { title: '金额（元）', dataIndex: 'amountFen', align: 'right', render: (v: number) => formatFen(v) },
      { title: '押金余额（元）', dataIndex: 'balanceAfterFen', align: 'right', render: (v: number) => formatFen(v) },
      { title: '流水号', dataIndex: 'id' },
      { title: '时间', dataIndex: 'createdAt', render: (v: number) => formatDateTime(v) },
    ]} />
  );
}

/** What a batch did, account by account; the failed ones can be retried under the same batch key (nobody is credited twice). */
function ResultDialog({ result, onRetry, retrying, onClose }: { result: DepositDirectResult | null; onRetry: () => void; retrying: boolean; onClose: () => void }) {
  return (
    <AppModal open={result !== null} title="直充结果" width={640} onCancel={onClose} footer={[
      result && result.failedCount > 0 ? <PreventClickButton key="r" onClick={onRetry} loading={retrying}>重试失败的账户</PreventClickButton> : null,
      <Button key="ok" type="primary" onClick={onClose}>完成</Button>,
    ]}>
      {result && (
        <>
          <Alert showIcon type={result.failedCount ? 'warning' : 'success'} style={{ marginBottom: 12 }} data-testid="direct-result"
            message={`成功 ${result.okCount} 户，失败 ${result.failedCount} 户；本批共收取 ${formatFen(result.creditedFen)} 元`} />
          <Table<DepositDirectRow> size="small" rowKey="accountId" dataSource={result.rows} pagination={false} scroll={{ y: 360 }} columns={[
            { title: '账户', dataIndex: 'accountName', render: (v: string, r) => v || `账户 ${r.accountId}` },
            { title: '结果', dataIndex: 'ok', width: 140, render: (v: boolean, r) => (v ? <Tag color="green">{r.replayed ? '成功（此前已入账）' : '成功'}</Tag> : <Tag color="red">失败</Tag>) },
            { title: '押金余额（元）', dataIndex: 'depositFen', width: 130, align: 'right', render: (v: number | null) => (v === null ? '—' : formatFen(v)) },
            { title: '原因', dataIndex: 'error', render: (v: string | null) => v ?? '' },
          ]} />
        </>
      )}
    </AppModal>
  );
}

/**
 * depositDirect (押金直充): one deposit amount collected for several accounts at once (picked, or a user group), each
 * account its own ledger entry under a key derived from the batch's Idempotency-Key — a retried batch credits nobody
 * twice; the result lists each account; below, the batches with their entries.
 */
export default function DepositDirectPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const by = Form.useWatch('by', form);
  const [adding, setAdding] = useState(false);
  const [result, setResult] = useState<DepositDirectResult | null>(null);
  const last = useRef<{ body: DepositDirectBody; key: string } | null>(null);
  const groups = useQuery({
    queryKey: [...accountKeys.groups(projectId), 'options'],
    queryFn: () => accountApi.groups({ projectId: projectId!, pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null && adding,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: accountKeys.all });
  const retry = useMutation({
    mutationFn: () => accountApi.depositDirect(last.current!.body, last.current!.key),
    onSuccess: (r) => {
      setResult(r);
      void refresh();
    },
  });
  if (projectId === null) return <NoProject title="押金直充" />;
  const bodyOf = (v: Values): DepositDirectBody => ({
    projectId, amountFen: fenOf(v.amount), reason: v.reason.trim(), ...(v.by === 'group' ? { groupId: v.groupId } : { accountIds: v.accountIds }),
  });
  const groupName = (id?: number) => groups.data?.rows.find((g) => g.id === id);
  return (
    <PageContainer title="押金直充">
      <DataTable<DepositBatchDto>
        queryKey={accountKeys.depositBatches(projectId)}
        fetchPage={accountApi.depositBatches}
        params={{ projectId }}
        rowKey="batchKey"
        filters={[{ name: 'time', label: '时间', kind: 'dateRange', rangeNames: ['startTime', 'endTime'] }]}
        toolbar={<Can code="depositDirect:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>新增直充</Button></Can>}
        expandable={{ expandedRowRender: (b) => <BatchEntries batchKey={b.batchKey} /> }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '户数', dataIndex: 'accounts', width: 80, align: 'right' },
          { title: '合计（元）', dataIndex: 'totalFen', width: 130, align: 'right', render: (v: number) => formatFen(v) },
          { title: '说明', dataIndex: 'reason', width: 200 },
          { title: '经办人', dataIndex: 'operator', width: 110 },
          { title: '批次号', dataIndex: 'batchKey', width: 300, render: (v: string) => <Typography.Text type="secondary" copyable style={{ fontSize: 12 }}>{v}</Typography.Text> },
        ]}
      />
      <MoneyDialog<Values, DepositDirectResult> open={adding} title="押金直充" okText="直充" form={form} width={600} initialValues={{ by: 'accounts', reason: '入住押金' }}
        confirm={(v) => {
          const fen = fenOf(v.amount);
          const who = v.by === 'group' ? `用户组「${groupName(v.groupId)?.name ?? ''}」的 ${groupName(v.groupId)?.memberCount ?? 0} 户` : `${v.accountIds?.length ?? 0} 户`;
          return <>向 <b>{who}</b> 各收取押金 <b>{formatFen(fen)} 元（{amountInWords(fen)}）</b>？</>;
        }}
        submit={(v, key) => {
          last.current = { body: bodyOf(v), key };
          return accountApi.depositDirect(last.current.body, key);
        }}
        onDone={(r) => {
          setAdding(false);
          setResult(r);
          if (!r.failedCount) message.success(`直充成功 ${r.okCount} 户`);
          void refresh();
        }}
        onClose={() => setAdding(false)}>
        <Form.Item name="by" label="直充对象"><Radio.Group options={[{ value: 'accounts', label: '选择账户' }, { value: 'group', label: '按用户组' }]} /></Form.Item>
        {by !== 'group' ? (
          <Form.Item name="accountIds" label="账户" rules={[{ required: true, type: 'array', min: 1, message: '请选择账户' }]}><AccountSelect projectId={projectId} multiple /></Form.Item>
        ) : (
          <Form.Item name="groupId" label="用户组" rules={[{ required: true, message: '请选择用户组' }]}>
            <Select loading={groups.isLoading} placeholder="选择用户组" options={(groups.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.name}（${g.memberCount} 户）` }))} />
          </Form.Item>
        )}
        <Form.Item name="amount" label="每户押金" rules={[yuanRule(null, '押金金额')]}><YuanInput /></Form.Item>
        <AmountWords name="amount" />
        <Form.Item name="reason" label="说明" rules={[{ required: true, whitespace: true, message: '请填写说明' }, { max: 200, message: '最多 200 个字符' }]}><Input maxLength={200} /></Form.Item>
      </MoneyDialog>
      <ResultDialog result={result} retrying={retry.isPending} onRetry={() => retry.mutate()} onClose={() => setResult(null)} />
    </PageContainer>
  );
}

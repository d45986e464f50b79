import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Popconfirm, Radio, Space, Table, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DATAVIEW_STATUS_LABELS, type DataviewCreated, type DataviewLinkDto } from '@kelvin/contracts';
import { toastSuccess, toastWarning } from '../../../lib/feedback';
import { dayjs, formatDateTime } from '../../../lib/time';
import { AppModal, Can } from '../../../lib/ui';
import { bigScreenApi, bigScreenKeys } from '../api';

const STATUS_COLORS = { active: 'green', expired: 'default', revoked: 'red' } as const;

/**
 * 分享: a public read-only link of the project screen with an expiry (1 天 / 7 天 / 30 天 / 自定义); the link is shown
 * once, to copy. Below, the project's links with 撤销 (immediately refused afterwards).
 */
export function ShareDialog({ projectId, projectName, onClose }: { projectId: number; projectName: string; onClose(): void }) {
  const client = useQueryClient();
  const [expiry, setExpiry] = useState<'1' | '7' | '30' | 'custom'>('7');
  const [until, setUntil] = useState<dayjs.Dayjs | null>(null);
  const [note, setNote] = useState('');
  const [made, setMade] = useState<DataviewCreated | null>(null);
  const links = useQuery({ queryKey: bigScreenKeys.links(projectId), queryFn: () => bigScreenApi.links(projectId) });
  const refresh = () => client.invalidateQueries({ queryKey: bigScreenKeys.links(projectId) });
  const create = useMutation({
    mutationFn: () => bigScreenApi.createLink({ projectId, note: note || undefined, ...(expiry === 'custom' ? { expiresAt: until!.valueOf() } : { days: Number(expiry) }) }),
    onSuccess: (r) => {
      setMade(r);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => bigScreenApi.revokeLink(id),
    onSuccess: () => {
      toastSuccess('已撤销，该链接立即失效');
      void refresh();
    },
  });
  const url = made ? `${window.location.origin}${made.path}` : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toastSuccess('链接已复制');
    } catch {
      toastWarning('浏览器不允许自动复制，请选中链接后手动复制');
    }
  };
  const submit = () => {
    if (expiry === 'custom' && !until) return toastWarning('请选择到期时间');
    create.mutate();
  };
  return (
    <AppModal open title={`分享项目大屏 — ${projectName}`} width={860} onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} zIndex={1100}>
      <Form layout="inline" style={{ rowGap: 12 }}>
        <Form.Item label="有效期">
          <Radio.Group value={expiry} onChange={(e) => setExpiry(e.target.value)} optionType="button"
            options={[{ value: '1', label: '1 天' }, { value: '7', label: '7 天' }, { value: '30', label: '30 天' }, { value: 'custom', label: '自定义' }]} />
        </Form.Item>
        {expiry === 'custom' && (
          <Form.Item label="到期时间">
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={until} onChange={setUntil} getPopupContainer={(n) => n.parentElement ?? document.body}
              disabledDate={(d) => d.isBefore(dayjs().startOf('day')) || d.isAfter(dayjs().add(366, 'day'))} />
          </Form.Item>
        )}
        <Form.Item label="备注"><Input value={note} maxLength={60} onChange={(e) => setNote(e.target.value)} placeholder="如：大厅屏" style={{ width: 180 }} /></Form.Item>
        <Can code="monitorScreen:btn_add"><Button type="primary" loading={create.isPending} onClick={submit}>生成链接</Button></Can>
      </Form>
      {made && (
        <Alert style={{ marginTop: 16 }} type="success" showIcon message={`链接已生成，有效期至 ${formatDateTime(made.expiresAt)}（只显示这一次，请现在复制）`}
          description={<Space.Compact style={{ width: '100%' }}><Input readOnly value={url} data-testid="share-url" /><Button onClick={copy}>复制</Button></Space.Compact>} />
      )}
      <Typography.Title level={5} style={{ marginTop: 20 }}>该项目的分享链接</Typography.Title>
      <Table<DataviewLinkDto> size="small" rowKey="id" loading={links.isLoading} dataSource={links.data ?? []} pagination={{ pageSize: 5, showTotal: (t) => `共 ${t} 条` }}
        locale={{ emptyText: '还没有分享链接' }}
        columns={[
          { title: '链接标识', dataIndex: 'hint', render: (h: string) => <Typography.Text code>{h}…</Typography.Text> },
          { title: '备注', dataIndex: 'note', render: (n: string | null) => n ?? '—' },
          { title: '创建人', dataIndex: 'createdBy' },
          { title: '创建时间', dataIndex: 'createdAt', render: (t: number) => formatDateTime(t) },
          { title: '到期时间', dataIndex: 'expiresAt', render: (t: number) => formatDateTime(t) },
          { title: '状态', dataIndex: 'status', render: (s: DataviewLinkDto['status']) => <Tag color={STATUS_COLORS[s]}>{DATAVIEW_STATUS_LABELS[s]}</Tag> },
          {
            title: '操作', key: 'op', render: (_: unknown, r) => r.status === 'active' && (
              <Can code="monitorScreen:btn_del">
                <Popconfirm title="撤销后该链接立即失效，确定撤销？" okText="撤销" cancelText="取消" onConfirm={() => revoke.mutate(r.id)} zIndex={1200}>
                  <Button type="link" danger size="small">撤销</Button>
                </Popconfirm>
              </Can>
            ),
          },
        ]} />
    </AppModal>
  );
}

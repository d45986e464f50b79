import { useState } from 'react';
import { Alert, App, Badge, Button, Descriptions, Form, Input, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REGISTRATION_STATUS, regApproveBody, type RegApplicationDto, type RegApproveAnswer, type RegistrationStatus } from '@kelvin/contracts';
import { DataTable } from '../../components/data-table';
import { FormModal } from '../../components/form-modal';
import { zodRule } from '../../lib/form';
import { formatDateTime } from '../../lib/time';
import { AppModal, Can } from '../../lib/ui';
import { reviewApi, reviewKeys } from './api';

/** The platform administrator's review of 入驻申请 (a tab of the tenant manager). */

const STATUS_COLOR: Record<RegistrationStatus, string> = { pending: 'orange', approved: 'green', rejected: 'default' };

/** The tab title with the number still waiting. */
export function ApplicationsTabLabel() {
  const q = useQuery({ queryKey: reviewKeys.pending, queryFn: reviewApi.pending, refetchInterval: 60_000 });
  return <span>入驻申请 <Badge count={q.data?.pending ?? 0} size="small" /></span>;
}

/** A code suggestion from the application id (the reviewer may change it). */
const suggestCode = (a: RegApplicationDto) => `t${a.id}`;

/** `onApproved`: a tenant was created (the tenant list refreshes). */
export function RegistrationApplications({ onApproved }: { onApproved?: () => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [approving, setApproving] = useState<RegApplicationDto | null>(null);
  const [rejecting, setRejecting] = useState<RegApplicationDto | null>(null);
  const [created, setCreated] = useState<RegApproveAnswer | null>(null);
  const [approveForm] = Form.useForm<{ tenantCode: string; username: string }>();
  const [rejectForm] = Form.useForm<{ reason: string }>();
  const refresh = () => qc.invalidateQueries({ queryKey: reviewKeys.all });
  const approve = useMutation({
    mutationFn: (v: { tenantCode: string; username: string }) => reviewApi.approve(approving!.id, v),
    onSuccess: (r) => {
      setApproving(null);
      setCreated(r);
      void refresh();
      onApproved?.();
    },
  });
  const reject = useMutation({
    mutationFn: (reason: string) => reviewApi.reject(rejecting!.id, reason),
    onSuccess: () => {
      message.success('已拒绝，并已短信通知申请人');
      setRejecting(null);
      void refresh();
    },
  });

  return (
    <>
      <DataTable<RegApplicationDto>
        queryKey={reviewKeys.list}
        fetchPage={reviewApi.page}
        rowKey="id"
        filters={[
          { name: 'status', label: '状态', kind: 'select', options: Object.entries(REGISTRATION_STATUS).map(([value, label]) => ({ value, label })), initial: 'pending' },
          { name: 'keyword', label: '关键字', placeholder: '公司、联系人或手机号' },
        ]}
        columns={[
          { title: '公司名称', dataIndex: 'company', width: 200 },
          { title: '联系人', dataIndex: 'contact', width: 100 },
          { title: '手机号', dataIndex: 'phone', width: 120 },
          { title: '备注', dataIndex: 'notes', render: (v: string | null) => v ?? '—' },
          { title: '状态', dataIndex: 'status', width: 90, render: (s: RegistrationStatus) => <Tag color={STATUS_COLOR[s]}>{REGISTRATION_STATUS[s]}</Tag> },
          { title: '申请时间', dataIndex: 'createdAt', width: 170, render: (v: number) => formatDateTime(v) },
          {
            title: '审核', key: 'review', width: 220,
            render: (_: unknown, r) => (r.status === 'pending' ? null : (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.reviewerName} · {r.reviewedAt ? formatDateTime(r.reviewedAt) : ''}
                {r.status === 'approved' ? ` · 租户 ${r.tenantCode}，管理员 ${r.username}` : ` · 原因：${r.reason}`}
              </Typography.Text>
            )),
          },
          {
            title: '操作', key: 'op', width: 130, fixed: 'right',
            render: (_: unknown, r) => r.status === 'pending' && (
              <Space size={0}>
                <Can code="tenantManager:btn_add">
                  <Button type="link" size="small" onClick={() => { approveForm.setFieldsValue({ tenantCode: suggestCode(r), username: `${suggestCode(r)}_admin` }); setApproving(r); }}>通过</Button>
                </Can>
                <Can code="tenantManager:btn_edit">
                  <Button type="link" size="small" danger onClick={() => { rejectForm.resetFields(); setRejecting(r); }}>拒绝</Button>
                </Can>
              </Space>
            ),
          },
        ]}
      />
      <FormModal title={`通过入驻申请：${approving?.company ?? ''}`} open={approving !== null} onClose={() => setApproving(null)} form={approveForm}
        saving={approve.isPending} onSave={(v) => approve.mutate(v)} okText="通过并创建租户">
        <Typography.Paragraph type="secondary">将创建租户「{approving?.company}」及其首个管理员（姓名 {approving?.contact}），初始密码随机生成，只显示一次并短信发送到 {approving?.phone}。</Typography.Paragraph>
        <Form.Item name="tenantCode" label="租户编码" rules={[zodRule(regApproveBody.shape.tenantCode)]} extra="小写字母、数字、_ 和 -，用于设备接入主题">
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="username" label="管理员账号" rules={[zodRule(regApproveBody.shape.username)]}>
          <Input maxLength={64} />
        </Form.Item>
      </FormModal>
      <FormModal title={`拒绝入驻申请：${rejecting?.company ?? ''}`} open={rejecting !== null} onClose={() => setRejecting(null)} form={rejectForm}
        saving={reject.isPending} onSave={(v) => reject.mutate(v.reason.trim())} okText="拒绝">
        <Form.Item name="reason" label="拒绝原因" rules={[{ required: true, whitespace: true, message: '请填写拒绝原因' }, { max: 200, message: '拒绝原因最多 200 个字符' }]} extra="原因将以短信通知申请人">
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </FormModal>
      <AppModal title="租户已创建" open={created !== null} onCancel={() => setCreated(null)} footer={<Button type="primary" onClick={() => setCreated(null)}>我已保存</Button>}>
        {created && (
          <>
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="初始密码只显示这一次（已短信发送给申请人），请妥善保存" />
            <Descriptions size="small" column={1} bordered items={[
              { label: '租户', children: created.application.company },
              { label: '管理员账号', children: <Typography.Text copyable>{created.username}</Typography.Text> },
              { label: '初始密码', children: created.password ? <Typography.Text copyable code data-testid="initial-password">{created.password}</Typography.Text> : '该申请此前已通过，密码不再显示' },
            ]} />
          </>
        )}
      </AppModal>
    </>
  );
}

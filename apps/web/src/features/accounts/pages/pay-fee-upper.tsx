import { useEffect } from 'react';
import { Alert, App, Card, Descriptions, Form, Input, Select, Space, Spin, Tabs } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_MONEY_SETTINGS, PAYMENT_PROVIDERS, paymentAccountBody, type MoneySettingsBody, type PaymentAccountBody,
} from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { accountApi, accountKeys } from '../api';
import { YuanInput } from '../components/money-dialog';
import { formatFen, parseYuan } from '../money';

/**
 * userPayFeeUpper (缴费上限): the project's money settings — limits on a single top-up and on the balance, the refund
 * amount above which a second user approves, the balance warnings and overdraft — and its merchant payment account.
 */
export default function PayFeeUpperPage() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="缴费上限" />;
  return (
    <PageContainer title="缴费上限">
      <Tabs destroyOnHidden items={[
        { key: 'limits', label: '缴费上限与审批', children: <LimitsForm projectId={projectId} /> },
        { key: 'payment', label: '商户支付账户', children: <PaymentAccount projectId={projectId} /> },
      ]} />
    </PageContainer>
  );
}

type LimitValues = Record<keyof MoneySettingsBody, string | undefined>;
const LIMIT_FIELDS: { name: keyof MoneySettingsBody; label: string; extra: string; optional?: boolean }[] = [
  { name: 'topupMaxFen', label: '单次充值上限（元）', extra: '留空为不限', optional: true },
  { name: 'balanceMaxFen', label: '余额上限（元）', extra: '充值后余额不能超过；留空为不限', optional: true },
  { name: 'refundApprovalFen', label: '退费审批金额（元）', extra: '单笔退费超过此金额须另一位用户审批；0 为每笔都要审批' },
  { name: 'warning1Fen', label: '余额预警一（元）', extra: '余额降到此值时发出预警一' },
  { name: 'warning2Fen', label: '余额预警二（元）', extra: '不高于预警一' },
  { name: 'overdraftFen', label: '透支额度（元）', extra: '余额低于 0 减此额度时断开；0 为余额 ≤ 0 即断开' },
];

/** a 元 text that may be 0 (limits and thresholds) */
function zeroOrYuan(v: string | undefined): number | null {
  const t = (v ?? '').trim();
  if (t === '') return null;
  if (/^0+(\.0{1,2})?$/.test(t)) return 0;
  const r = parseYuan(t);
  if (!r.ok) throw new Error(r.message);
  return r.fen;
}

function LimitsForm({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan('userPayFeeUpper:btn_edit');
  const [form] = Form.useForm<LimitValues>();
  const q = useQuery({ queryKey: accountKeys.settings(projectId), queryFn: () => accountApi.settings(projectId) });
  useEffect(() => {
    const s = q.data ?? DEFAULT_MONEY_SETTINGS;
    form.setFieldsValue(Object.fromEntries(LIMIT_FIELDS.map((f) => [f.name, s[f.name] === null ? '' : formatFen(s[f.name]!).replace(/,/g, '')])) as LimitValues);
  }, [q.data, form]);
  const save = useMutation({
    mutationFn: (v: LimitValues) => {
      const fen = (k: keyof MoneySettingsBody) => zeroOrYuan(v[k]);
      return accountApi.saveSettings(projectId, {
        topupMaxFen: fen('topupMaxFen'), balanceMaxFen: fen('balanceMaxFen'), refundApprovalFen: fen('refundApprovalFen') ?? 0,
        warning1Fen: fen('warning1Fen') ?? 0, warning2Fen: fen('warning2Fen') ?? 0, overdraftFen: fen('overdraftFen') ?? 0,
      });
    },
    onSuccess: (s) => {
      message.success('保存成功');
      qc.setQueryData(accountKeys.settings(projectId), s);
    },
  });
  if (q.isLoading) return <Spin />;
  return (
    <Card size="small" variant="borderless" style={{ maxWidth: 720 }}>
      <Form form={form} layout="vertical" disabled={!canEdit}>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
          {LIMIT_FIELDS.map((f) => (
            <Form.Item key={f.name} name={f.name} label={f.label} extra={f.extra} dependencies={f.name === 'warning2Fen' ? ['warning1Fen'] : undefined} rules={[
              { required: !f.optional, message: `请输入${f.label.replace('（元）', '')}` },
              ({ getFieldValue }) => ({
                validator: async (_r, v: string | undefined) => {
                  const fen = zeroOrYuan(v);
                  if (fen === 0 && f.optional) throw new Error('上限须大于 0；不限请留空');
                  if (f.name === 'warning2Fen' && fen !== null) {
                    const w1 = zeroOrYuan(getFieldValue('warning1Fen') as string);
                    if (w1 !== null && fen > w1) throw new Error('预警二金额不能高于预警一');
                  }
                },
              }),
            ]}>
              <YuanInput placeholder={f.optional ? '不限' : '如 50 或 0'} />
            </Form.Item>
          ))}
        </div>
        <Can code="userPayFeeUpper:btn_edit">
          <PreventClickButton type="primary" loading={save.isPending} onClick={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}>保存</PreventClickButton>
        </Can>
      </Form>
    </Card>
  );
}

type PayValues = PaymentAccountBody;
const p = paymentAccountBody.shape;

/** The project's merchant payment account: keys are write-only (stored encrypted, shown masked). */
function PaymentAccount({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<PayValues>();
  const canEdit = useCan('userPayFeeUpper:btn_edit');
  const q = useQuery({ queryKey: accountKeys.paymentAccount(projectId), queryFn: () => accountApi.paymentAccount(projectId) });
  const acc = q.data;
  const provider = Form.useWatch('provider', form);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(acc
      ? { provider: acc.provider, mchId: acc.mchId, appId: acc.appId, certSerialNo: acc.certSerialNo ?? '', notifyUrl: acc.notifyUrl ?? '' }
      : { provider: 'sandbox' });
  }, [acc, form]);
  const refresh = () => qc.invalidateQueries({ queryKey: accountKeys.paymentAccount(projectId) });
  const save = useChange(
    (v: PayValues) => accountApi.savePaymentAccount({
      ...v, projectId,
      privateKey: v.privateKey?.trim() || undefined, platformPublicKey: v.platformPublicKey?.trim() || undefined,
      certSerialNo: v.certSerialNo?.trim() || undefined, notifyUrl: v.notifyUrl?.trim() || undefined,
    }),
    { done: '保存成功', refresh },
  );
  const remove = useMutation({
    mutationFn: () => accountApi.removePaymentAccount(projectId),
    onSuccess: () => {
      message.success('已删除');
      void refresh();
    },
  });
  if (q.isLoading) return <Spin />;
  return (
    <Space orientation="vertical" style={{ width: '100%', maxWidth: 760 }}>
      {acc ? (
        <Descriptions size="small" bordered column={2} title="当前商户账户" items={[
          { label: '支付方式', children: PAYMENT_PROVIDERS[acc.provider] },
          { label: '商户号', children: acc.mchId },
          { label: 'AppID', children: acc.appId },
          { label: 'API 密钥', children: <span data-testid="api-key-masked">{acc.apiKeyMasked}</span> },
          { label: '商户私钥', children: acc.hasPrivateKey ? '已保存' : '未设置' },
          { label: '平台公钥', children: acc.hasPlatformPublicKey ? '已保存' : '未设置' },
          { label: '证书序列号', children: acc.certSerialNo ?? '—' },
          { label: '回调地址', children: acc.notifyUrl ?? '—' },
          { label: '更新时间', children: formatDateTime(acc.updatedAt), span: 2 },
        ]} />
      ) : <Alert type="info" showIcon message="本项目还没有商户支付账户：在线充值不可用。可先配置沙箱支付用于演示和测试。" />}
      <Card size="small" title={acc ? '修改（密钥须重新填写）' : '配置商户支付账户'}>
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="密钥只写不读：保存后加密存储，界面只显示末几位。" />
        <Form form={form} layout="vertical" disabled={!canEdit}>
          <Form.Item name="provider" label="支付方式" rules={[{ required: true, message: '请选择支付方式' }]}>
            <Select options={Object.entries(PAYMENT_PROVIDERS).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
          <div style={{ display: 'flex', gap: 12 }}>
            <Form.Item name="mchId" label="商户号" rules={[zodRule(p.mchId)]} style={{ flex: 1 }}><Input maxLength={32} /></Form.Item>
            <Form.Item name="appId" label="AppID" rules={[zodRule(p.appId)]} style={{ flex: 1 }}><Input maxLength={64} /></Form.Item>
          </div>
          <Form.Item name="apiKey" label={provider === 'wechat' ? 'APIv3 密钥' : '通知签名密钥'} rules={[zodRule(p.apiKey)]}>
            <Input.Password maxLength={128} autoComplete="new-password" placeholder={acc ? `现为 ${acc.apiKeyMasked}，须重新输入` : '至少 16 个字符'} />
          </Form.Item>
          {provider === 'wechat' && (
            <>
              <Form.Item name="certSerialNo" label="商户证书序列号" rules={[zodRule(p.certSerialNo)]}><Input maxLength={64} /></Form.Item>
              <Form.Item name="privateKey" label="商户私钥（PEM）" extra={acc?.hasPrivateKey ? '已保存；留空则保留原私钥' : undefined}>
                <Input.TextArea rows={3} placeholder="-----BEGIN PRIVATE KEY-----" autoComplete="off" />
              </Form.Item>
              <Form.Item name="platformPublicKey" label="微信支付平台公钥（PEM）" extra={acc?.hasPlatformPublicKey ? '已保存；留空则保留原公钥' : '用于验证支付回调签名'}>
                <Input.TextArea rows={3} placeholder="-----BEGIN PUBLIC KEY-----" autoComplete="off" />
              </Form.Item>
            </>
          )}
          <Form.Item name="notifyUrl" label="回调地址" rules={[zodRule(p.notifyUrl)]}><Input maxLength={300} placeholder="https://…（可不填，使用默认地址）" /></Form.Item>
          <Space>
            <Can code="userPayFeeUpper:btn_edit">
              <PreventClickButton type="primary" loading={save.isPending} onClick={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}>保存</PreventClickButton>
            </Can>
            {acc && (
              <DeleteLink button code="userPayFeeUpper:btn_del" title="删除本项目的商户支付账户？" description="删除后在线充值不可用；已有订单不受影响" onConfirm={() => remove.mutate()} />
            )}
          </Space>
        </Form>
      </Card>
    </Space>
  );
}

import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { CaptchaChallenge } from '@kelvin/contracts/auth';
import { REG_SEND_INTERVAL_MS } from '@kelvin/contracts';
import { toastSuccess } from '../../../lib/feedback';
import { PreventClickButton } from '../../../lib/ui';
import { publicApi } from '../api';
import { PublicFrame } from '../components';

type Values = { company: string; contact: string; phone: string; captchaCode: string; smsCode: string; notes?: string };
const PHONE = /^1[3-9]\d{9}$/;

/** /reg: an operator company applies for an account (phone proved by an SMS code, the image captcha before sending it). */
export default function RegisterPage() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const [captcha, setCaptcha] = useState<CaptchaChallenge | null>(null);
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const newCaptcha = async () => {
    form.setFieldValue('captchaCode', '');
    try {
      setCaptcha(await publicApi.captcha());
    } catch {
      setCaptcha(null); // the HTTP client showed why
    }
  };
  useEffect(() => { void newCaptcha(); }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once on open
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const sendCode = async () => {
    const { phone } = await form.validateFields(['phone']).catch(() => ({ phone: '' }));
    // the image captcha guards the SMS only (it is spent by the send, so the submit does not ask for it)
    const captchaCode = String(form.getFieldValue('captchaCode') ?? '').trim();
    if (!captchaCode) form.setFields([{ name: 'captchaCode', errors: ['请输入图形验证码'] }]);
    if (!phone || !captchaCode || !captcha) return;
    setSending(true);
    try {
      const r = await publicApi.sendCode({ phone, captchaId: captcha.captchaId, captchaCode: captchaCode.trim() });
      toastSuccess('验证码已发送，请查收短信');
      setWait(r.resendAfterSeconds);
    } catch {
      // a captcha is good for one try
    } finally {
      setSending(false);
      void newCaptcha();
    }
  };

  const submit = async (v: Values) => {
    setSubmitting(true);
    try {
      await publicApi.apply({ company: v.company.trim(), contact: v.contact.trim(), phone: v.phone, smsCode: v.smsCode.trim(), notes: v.notes?.trim() || undefined });
      navigate('/success', { replace: true });
    } catch {
      // shown by the HTTP client (wrong or expired code …)
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicFrame narrow>
      <Card title="运营公司入驻申请" style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary">填写贵公司的信息并验证手机号，平台审核通过后将以短信发送管理员账号与初始密码。</Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={submit} requiredMark="optional" autoComplete="off">
          <Form.Item name="company" label="公司名称" rules={[{ required: true, whitespace: true, message: '请输入公司名称' }, { max: 60, message: '公司名称最多 60 个字符' }]}>
            <Input maxLength={60} placeholder="例如：某某物业服务有限公司" />
          </Form.Item>
          <Form.Item name="contact" label="联系人" rules={[{ required: true, whitespace: true, message: '请输入联系人' }, { max: 30, message: '联系人最多 30 个字符' }]}>
            <Input maxLength={30} />
          </Form.Item>
          <Form.Item name="phone" label="手机号" rules={[{ required: true, message: '请输入手机号' }, { pattern: PHONE, message: '手机号格式不正确' }]}>
            <Input maxLength={11} inputMode="numeric" />
          </Form.Item>
          <Form.Item label="图形验证码" required extra="获取短信验证码前填写">
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="captchaCode" noStyle>
                <Input maxLength={10} placeholder="请输入右侧字符" aria-label="图形验证码" />
              </Form.Item>
              {captcha && <img src={captcha.image} alt="图形验证码" title="看不清？点击换一张" width={120} height={32} data-testid="reg-captcha"
                style={{ cursor: 'pointer', border: '1px solid #d9d9d9', borderLeft: 0, borderRadius: '0 6px 6px 0' }} onClick={() => void newCaptcha()} />}
            </Space.Compact>
          </Form.Item>
          <Form.Item label="短信验证码" required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="smsCode" noStyle rules={[{ required: true, message: '请输入短信验证码' }, { pattern: /^\d{6}$/, message: '短信验证码为 6 位数字' }]}>
                <Input maxLength={6} inputMode="numeric" aria-label="短信验证码" />
              </Form.Item>
              <Button onClick={() => void sendCode()} loading={sending} disabled={wait > 0} style={{ width: 130 }}>
                {wait > 0 ? `${wait} 秒后重新获取` : '获取验证码'}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item name="notes" label="备注" rules={[{ max: 300, message: '备注最多 300 个字符' }]}>
            <Input.TextArea rows={3} maxLength={300} showCount placeholder="项目数量、设备类型等（选填）" />
          </Form.Item>
          <PreventClickButton type="primary" htmlType="submit" block size="large" loading={submitting}>提交申请</PreventClickButton>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 12 }}>验证码 {REG_SEND_INTERVAL_MS / 1000} 秒内只能获取一次，每个手机号每天最多 10 次。</Typography.Paragraph>
      </Card>
    </PublicFrame>
  );
}

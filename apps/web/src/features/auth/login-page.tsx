import { useEffect, useState, type FormEvent } from 'react';
import { Button } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import type { CaptchaChallenge } from '@kelvin/contracts/auth';
import { useNavigate, useSearchParams } from 'react-router';
import { useBlockF12, useIsMobile } from '../../lib/ui';
import { useSession } from '../../stores/session';
import { ApiError, authApi } from './api';
import { useProject } from '../../stores/project';
import { copyrightLine } from '../../layout/footer';
import { TextInput } from '../../layout/text-input';
import { TenantBrand } from '../../layout/tenant-brand';
import { parseProjectId } from '../../stores/project';

const fieldError = { color: '#ff4d4f', fontSize: 13, minHeight: 22, lineHeight: '22px' } as const;

interface TenantOfLink {
  id: number;
  brand: string | null;
  hasLogo: boolean;
}

/** A tenant's own login link (/login?tenantId=N) shows its logo or brand name. */
function useTenantOfLink(raw: string | null): TenantOfLink | null {
  const id = parseProjectId(raw);
  const [tenant, setTenant] = useState<TenantOfLink | null>(null);
  useEffect(() => {
    if (id === null) return;
    let live = true;
    authApi.brand(id)
      .then((t) => {
        if (live && (t.brand || t.hasLogo)) setTenant({ id, brand: t.brand, hasLogo: t.hasLogo });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id]);
  return id === null ? null : tenant;
}

/**
 * Login (desktop and mobile variants): the username is trimmed; on success the token, tenant and login id are stored.
 * Plain inputs rather than antd Form: the login page is part of the shell's bundle budget.
 */
export function LoginPage() {
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  // shown once the server asks for it (after a few failed logins of the account); each image is good for one try
  const [captcha, setCaptcha] = useState<CaptchaChallenge | null>(null);
  const [captchaCode, setCaptchaCode] = useState('');
  useBlockF12();
  const tenant = useTenantOfLink(params.get('tenantId'));
  const userError = touched && !username.trim() ? '请输入账号' : '';
  const passError = touched && !password ? '请输入密码' : '';
  const captchaError = touched && captcha && !captchaCode.trim() ? '请输入验证码' : '';

  const newCaptcha = async () => {
    setCaptchaCode('');
    try {
      setCaptcha(await authApi.captcha());
    } catch {
      // the HTTP client showed why
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password || captchaError || (captcha && !captchaCode.trim()) || busy) return;
    setBusy(true);
    try {
      await useSession.getState().login(username.trim(), password, captcha ? { captchaId: captcha.captchaId, captchaCode: captchaCode.trim() } : undefined);
      useProject.getState().reset();
      const redirect = params.get('redirect');
      navigate(redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/', { replace: true });
    } catch (err) {
      // the HTTP client already showed the error catalogue's message
      if (captcha || (err instanceof ApiError && (err.data as { captchaRequired?: boolean } | null)?.captchaRequired)) await newCaptcha();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      data-testid={mobile ? 'login-mobile' : 'login-desktop'}
      style={{
        minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center',
        background: 'linear-gradient(135deg, #0b2a4a 0%, #12507f 55%, #1b7fb5 100%)', padding: mobile ? 16 : 0, boxSizing: 'border-box',
      }}
    >
      <form
        onSubmit={submit}
        noValidate
        style={{ width: mobile ? '100%' : 400, maxWidth: 420, boxSizing: 'border-box', background: '#fff', borderRadius: 12, padding: mobile ? 24 : 36, boxShadow: '0 12px 40px rgba(0,0,0,0.25)' }}
      >
        {tenant && (
          <div style={{ display: 'flex', justifyContent: 'center', marginBottom: 12, fontSize: 20, color: '#12507f' }}>
            <TenantBrand tenantId={tenant.id} brand={tenant.brand} hasLogo={tenant.hasLogo} withName />
          </div>
        )}
        <h1 style={{ textAlign: 'center', fontSize: 22, margin: '0 0 6px' }}>Kelvin 楼宇能源管理平台</h1>
        <p style={{ textAlign: 'center', color: 'rgba(0,0,0,0.45)', margin: '0 0 24px' }}>供暖与空调 · 计量计费 · 设备监控</p>
        <TextInput
          name="username" prefix={<UserOutlined />} placeholder="账号" aria-label="账号" autoComplete="username" maxLength={64}
          error={Boolean(userError)} value={username} onChange={(e) => setUsername(e.target.value)}
        />
        <div style={fieldError}>{userError}</div>
        <TextInput
          password name="password" prefix={<LockOutlined />} placeholder="密码" aria-label="密码" autoComplete="current-password" maxLength={128}
          error={Boolean(passError)} value={password} onChange={(e) => setPassword(e.target.value)}
        />
        <div style={fieldError}>{passError}</div>
        {captcha && (
          <>
            <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <div style={{ flex: 1 }}>
                <TextInput
                  name="captcha" prefix={<SafetyOutlined />} placeholder="验证码" aria-label="验证码" autoComplete="off" maxLength={10}
                  error={Boolean(captchaError)} value={captchaCode} onChange={(e) => setCaptchaCode(e.target.value)}
                />
              </div>
              <img
                src={captcha.image} alt="图形验证码" title="看不清？点击换一张" data-testid="login-captcha" width={120} height={40}
                style={{ cursor: 'pointer', borderRadius: 6, border: '1px solid #d9d9d9' }} onClick={() => void newCaptcha()}
              />
            </div>
            <div style={fieldError}>{captchaError}</div>
          </>
        )}
        <Button type="primary" htmlType="submit" size="large" block loading={busy} style={{ marginTop: 8 }}>登 录</Button>
      </form>
      <div style={{ color: 'rgba(255,255,255,0.75)', fontSize: 12, marginTop: 24 }}>{copyrightLine(new Date().getFullYear())}</div>
    </div>
  );
}

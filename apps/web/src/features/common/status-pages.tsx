import { Button, Result } from 'antd';
import { Link, Navigate } from 'react-router';
import { getStored } from '../../lib/storage';

export function NotFoundPage() {
  return (
    <Result status="404" title="404" subTitle="抱歉，您访问的页面不存在" extra={<Link to="/"><Button type="primary">返回首页</Button></Link>} />
  );
}

export function UnauthorizedPage() {
  return (
    <Result status="403" title="401" subTitle="抱歉，您没有权限访问该页面" extra={<Link to="/"><Button type="primary">返回首页</Button></Link>} />
  );
}

/** Public pages the spec lists without behaviour of their own here: they say what they are, plainly. */
const PUBLIC_NOTICES: Record<string, { title: string; sub: string }> = {
  // spec §7.5: the third-party login action exists but is non-functional
  authredirect: { title: '第三方登录暂不可用', sub: '本平台暂不支持第三方账号登录，请使用平台账号和密码登录' },
};

export function PublicNotice({ page }: { page: keyof typeof PUBLIC_NOTICES }) {
  const n = PUBLIC_NOTICES[page];
  return (
    <div style={{ paddingTop: '12vh' }}>
      <Result
        status="info"
        title={n.title}
        subTitle={n.sub}
        extra={<Link to={getStored('token') ? '/' : '/login'}><Button type="primary">{getStored('token') ? '返回首页' : '前往登录'}</Button></Link>}
      />
    </div>
  );
}

/** /layoutMobile: the mobile layout is the responsive main layout; go there. */
export function LayoutMobileRedirect() {
  return <Navigate to="/" replace />;
}

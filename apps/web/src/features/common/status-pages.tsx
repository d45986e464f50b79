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

/** Public pages the spec lists whose behaviour is not specified: they say what they are, plainly. */
const PUBLIC_NOTICES: Record<string, { title: string; sub: string }> = {
  authredirect: { title: '第三方登录暂不可用', sub: '请使用平台账号登录' },
  reg: { title: '账号注册', sub: '平台账号由管理员开通，请联系您的物业公司管理员' },
  success: { title: '操作成功', sub: '您可以返回首页继续操作' },
  demo: { title: '演示页面（未开放）', sub: '该功能尚未开放，敬请期待' },
  addDevice: { title: '扫码添加设备（未开放）', sub: '该功能尚未开放，请在控制台「设备列表」中添加设备' },
};

export function PublicNotice({ page }: { page: keyof typeof PUBLIC_NOTICES }) {
  const n = PUBLIC_NOTICES[page];
  return (
    <div style={{ paddingTop: '12vh' }}>
      <Result
        status={page === 'success' ? 'success' : 'info'}
        title={n.title}
        subTitle={n.sub}
        extra={<Link to={getStored('token') ? '/' : '/login'}><Button type="primary">{getStored('token') ? '返回首页' : '前往登录'}</Button></Link>}
      />
    </div>
  );
}

export function IntroductionPage() {
  return (
    <div style={{ maxWidth: 760, margin: '10vh auto', padding: 24, lineHeight: 1.9 }}>
      <h1 style={{ fontSize: 28 }}>Kelvin 楼宇能源管理平台</h1>
      <p>面向物业运营方的物联网能源管理控制台：监控和控制温控器、热泵、热量表、电表、平衡阀、光伏与 4G 设备，
        为住户和租户的采暖与空调计费（预付费、押金、费用分摊）并出具报表；平台管理员在同一平台上运营多家物业公司。</p>
      <Link to="/login"><Button type="primary" size="large">登录控制台</Button></Link>
    </div>
  );
}

/** /layoutMobile: the mobile layout is the responsive main layout; go there. */
export function LayoutMobileRedirect() {
  return <Navigate to="/" replace />;
}

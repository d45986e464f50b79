import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import { Link } from 'react-router';
import { getStored } from '../../lib/storage';

/** The visitor pages' frame: the product name and the ways in (demo, registration, login), then the page. */
export function PublicFrame({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  const signedIn = !!getStored('token');
  return (
    <div style={{ minHeight: '100vh', background: '#f5f7fa', display: 'flex', flexDirection: 'column' }}>
      <header style={{ background: 'linear-gradient(135deg, #0b2a4a 0%, #12507f 60%, #1b7fb5 100%)', color: '#fff', padding: '0 16px' }}>
        <div style={{ maxWidth: 1120, margin: '0 auto', height: 56, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
          <Link to="/introduction/index" style={{ color: '#fff', fontWeight: 700, fontSize: 18, letterSpacing: 1, whiteSpace: 'nowrap' }}>Kelvin 能源云</Link>
          <Space size={4} wrap={false}>
            <Link to="/demo"><Button type="text" style={{ color: '#fff' }}>在线演示</Button></Link>
            <Link to="/reg"><Button type="text" style={{ color: '#fff' }}>申请入驻</Button></Link>
            <Link to={signedIn ? '/' : '/login'}><Button ghost>{signedIn ? '进入控制台' : '登录'}</Button></Link>
          </Space>
        </div>
      </header>
      <main style={{ flex: 1, width: '100%', maxWidth: narrow ? 560 : 1120, margin: '0 auto', padding: 16, boxSizing: 'border-box' }}>{children}</main>
      <footer style={{ textAlign: 'center', color: '#8c8c8c', padding: 16, fontSize: 12 }}>Copyright © 2006-{new Date().getFullYear()} Kelvin 能源云 版权所有</footer>
    </div>
  );
}

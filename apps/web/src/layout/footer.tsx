import { useSession } from '../stores/session';

/** Spec §1: © 2006–current year, the filing number and an optional brand name. */
export function copyrightLine(year: number, brand?: string | null) {
  return `Copyright © 2006-${year}${brand ? ` ${brand}` : ''} 版权所有`;
}

export function AppFooter() {
  const user = useSession((s) => s.user);
  return (
    <footer style={{ textAlign: 'center', padding: '8px 0', fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>
      {copyrightLine(new Date().getFullYear(), user?.brand)}
      {user?.filingNo && <span style={{ marginInlineStart: 12 }}>{user.filingNo}</span>}
    </footer>
  );
}

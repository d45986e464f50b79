import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useSession } from '../stores/session';
import { MainLayout } from './main-layout';
import { Spinner } from './bits';

/**
 * Access guard (spec §2.1): without a token any non-public path goes to /login; on first entry the user info and menu
 * codes are loaded and the allowed routes generated from them; a failed load logs out and goes to /login.
 */
export function AuthGate() {
  const token = useSession((s) => s.token);
  const status = useSession((s) => s.status);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (token && status === 'idle') {
      useSession.getState().loadUser().catch(() => {
        if (!useSession.getState().token) navigate('/login', { replace: true });
        else setTimeout(() => useSession.setState({ status: 'idle' }), 3000); // no answer: try again shortly
      });
    }
  }, [token, status, navigate]);

  if (!token) {
    const here = location.pathname + location.search;
    const keep = here !== '/' && here !== '/judge';
    return <Navigate to={keep ? `/login?redirect=${encodeURIComponent(here)}` : '/login'} replace />;
  }
  if (status !== 'ready') {
    return <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}><Spinner /></div>;
  }
  return <MainLayout />;
}

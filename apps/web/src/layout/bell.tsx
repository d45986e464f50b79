import { useEffect, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { CountBadge } from './bits';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { http } from '../lib/http';
import { openLiveStream } from '../lib/live';
import { useCan } from '../lib/ui';
import { useProject } from '../stores/project';

/** Spec §9: unread monitor messages polled every 60 s (and reloaded on every live alarm event). */
export const MONITOR_POLL_MS = 60_000;

/** The message bell: needs monitorrules; a dot at 0, else the count capped at 99; opens the monitor rules screen. */
export function Bell() {
  const allowed = useCan('monitorrules');
  const projectId = useProject((s) => s.current?.id);
  const [count, setCount] = useState(0);
  const navigate = useNavigate();

  useEffect(() => {
    if (!allowed || !projectId) return;
    let alive = true;
    const load = () =>
      http.get<number>(`/api/v1/device/monitormessageqty/${projectId}`, undefined, { silent: true })
        .then((n) => alive && setCount(Number(n) || 0))
        .catch(() => undefined);
    void load();
    const t = setInterval(load, MONITOR_POLL_MS);
    // an alarm raised, cleared or acknowledged anywhere updates the count at once (SSE), the poll is the fallback
    const live = openLiveStream(projectId);
    live?.addEventListener('alarm', () => void load());
    return () => {
      alive = false;
      clearInterval(t);
      live?.close();
    };
  }, [allowed, projectId]);

  if (!allowed) return null;
  return (
    <Tooltip title="监控消息">
      <Button type="text" aria-label="监控消息" data-testid="bell" onClick={() => navigate('/businesscenter/monitorrules')}>
        <CountBadge count={count} dotAtZero>
          <BellOutlined style={{ fontSize: 18 }} />
        </CountBadge>
      </Button>
    </Tooltip>
  );
}

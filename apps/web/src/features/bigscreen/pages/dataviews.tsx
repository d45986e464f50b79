import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { bigScreenApi, bigScreenKeys, linkRefused } from '../api';
import { ScreenFrame, ScreenTools } from '../components/frame';

/** A public link refreshes its figures this often (no live stream without a login). */
export const DATAVIEW_REFRESH_MS = 15_000;

/**
 * /dataviews?token=… (no login): the shared project screen, read-only. A revoked, expired or unknown link says so
 * (链接已失效) and stops asking.
 */
export default function DataviewsPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const q = useQuery({
    queryKey: bigScreenKeys.dataview(token), queryFn: () => bigScreenApi.dataview(token), enabled: token !== '',
    refetchInterval: (query) => (linkRefused(query.state.error) ? false : DATAVIEW_REFRESH_MS),
  });
  const failed = linkRefused(q.error);
  const expired = !token || failed;
  const message = !token ? '链接已失效：链接中没有访问令牌' : (q.error as Error | null)?.message ?? '';
  return (
    <ScreenFrame data={expired ? undefined : q.data} isLoading={q.isLoading && !expired} error={expired ? new Error(message) : q.error} kind="project"
      tools={<ScreenTools exit={false} />}
      failure={expired && <div data-testid="bs-invalid"><div style={{ fontSize: 48, color: '#ff7875', marginBottom: 16 }}>链接已失效</div><div>{message.replace(/^链接已失效：?/, '') || '请向分享者索取新的链接'}</div></div>} />
  );
}

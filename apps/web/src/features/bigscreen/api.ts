import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BigScreenSummary, DataviewCreate, DataviewCreated, DataviewLinkDto, DataviewSummary } from '@kelvin/contracts';
import { ApiError, http } from '../../lib/http';
import { openLiveStream } from '../../lib/live';

/** 大屏: the comprehensive and project screens, share links, and the public read of a link. */
export const bigScreenApi = {
  overview: (energy: boolean) => http.get<BigScreenSummary>('/api/v1/bigscreen/overview', energy ? undefined : { energy: 0 }),
  project: (projectId: number, energy: boolean) => http.get<BigScreenSummary>(`/api/v1/bigscreen/project/${projectId}`, energy ? undefined : { energy: 0 }),
  links: (projectId: number) => http.get<DataviewLinkDto[]>('/api/v1/bigscreen/share', { projectId }),
  createLink: (body: DataviewCreate) => http.post<DataviewCreated>('/api/v1/bigscreen/share', body),
  revokeLink: (id: number) => http.post<DataviewLinkDto>(`/api/v1/bigscreen/share/${id}/revoke`),
  // errors are the page's to show (链接已失效), not a toast
  dataview: (token: string) => http.get<DataviewSummary>('/api/v1/dataviews', { token }, { silent: true }),
};

/** The server refused a share link (expired, revoked, unknown) — not a network failure (0) or the rate limit (42900). */
export const linkRefused = (err: unknown) => err instanceof ApiError && err.code !== 0 && err.code !== 42900;

export const bigScreenKeys = {
  all: ['bigscreen'] as const,
  summary: (projectId: number | 'all', part: 'energy' | 'live') => ['bigscreen', 'summary', projectId, part] as const,
  links: (projectId: number | null) => ['bigscreen', 'links', projectId] as const,
  dataview: (token: string) => ['bigscreen', 'dataview', token] as const,
};

/** Energy aggregates change slowly: read with everything else once a minute. */
export const ENERGY_REFRESH_MS = 60_000;
/** Live events within this window make one refresh of the live figures (a screen of 200 devices hears several a second). */
export const LIVE_DEBOUNCE_MS = 700;

/**
 * A screen's summary: the whole of it every minute, and its live part (devices online, running units, alarms)
 * again within a second of any device or alarm event on the SSE stream — no reload, the figures move in place.
 * The live part overrides the minute's figures it carries.
 */
export function useScreenSummary(projectId: number | 'all' | null) {
  const client = useQueryClient();
  const load = (energy: boolean) => () => (projectId === 'all' ? bigScreenApi.overview(energy) : bigScreenApi.project(projectId!, energy));
  const full = useQuery({
    queryKey: bigScreenKeys.summary(projectId ?? 0, 'energy'), queryFn: load(true), enabled: projectId !== null,
    refetchInterval: ENERGY_REFRESH_MS, staleTime: 0,
  });
  const live = useQuery({ queryKey: bigScreenKeys.summary(projectId ?? 0, 'live'), queryFn: load(false), enabled: false });
  useEffect(() => {
    if (projectId === null) return;
    const source = openLiveStream(projectId === 'all' ? undefined : projectId);
    if (!source) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const poke = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void client.fetchQuery({ queryKey: bigScreenKeys.summary(projectId, 'live'), queryFn: load(false), staleTime: 0 });
      }, LIVE_DEBOUNCE_MS);
    };
    source.addEventListener('device', poke);
    source.addEventListener('alarm', poke);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load reads projectId only
  }, [projectId, client]);
  const base = full.data;
  const fresh = live.data && base && live.data.generatedAt > base.generatedAt ? live.data : null;
  const data: BigScreenSummary | undefined = base && fresh
    ? { ...base, devices: fresh.devices, units: fresh.units, activeAlarms: fresh.activeAlarms, alarms: fresh.alarms, projects: fresh.projects }
    : base;
  return { data, isLoading: full.isLoading, error: full.error };
}

import { useMemo, useState } from 'react';
import { Button } from 'antd';
import type { ProjectMapStatus } from '@kelvin/contracts';
import china from '../assets/china-provinces.json';

export const COLORS: Record<ProjectMapStatus, string> = { normal: '#52c41a', alarm: '#f5222d', offline: '#8c8c8c', empty: '#d9d9d9', unknown: '#faad14' };
const W = 800;
const H = 560;
const PAD = 30;
/** markers closer than this (px) are drawn as one cluster */
const CLUSTER_PX = 36;
/** worst first: a cluster shows the state that needs attention */
const SEVERITY: ProjectMapStatus[] = ['alarm', 'offline', 'unknown', 'normal', 'empty'];
const CHINA: Extent = [73, 17, 135.5, 54];

type Extent = [number, number, number, number];
/** what a marker needs: the projectindex items and the big screen's projects both fit */
export interface MapPoint { id: number; name: string; alias?: string | null; status: ProjectMapStatus; lng: number | null; lat: number | null }
type Placed = MapPoint & { lng: number; lat: number };
interface Cluster { x: number; y: number; items: Placed[] }

/** Equirectangular over an extent, x shrunk by cos(latitude) so shapes keep their look. */
function projection([minX, minY, maxX, maxY]: Extent) {
  const k = Math.cos((((minY + maxY) / 2) * Math.PI) / 180);
  const s = Math.min((W - 2 * PAD) / ((maxX - minX) * k), (H - 2 * PAD) / (maxY - minY));
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  return { x: (lng: number) => W / 2 + (lng - cx) * k * s, y: (lat: number) => H / 2 - (lat - cy) * s };
}

/** Greedy clustering in screen space: each marker joins the first cluster within CLUSTER_PX of it. */
function clusterize(items: Placed[], proj: ReturnType<typeof projection>): Cluster[] {
  const clusters: Cluster[] = [];
  for (const i of items) {
    const x = proj.x(i.lng);
    const y = proj.y(i.lat);
    const near = clusters.find((c) => Math.hypot(c.x - x, c.y - y) < CLUSTER_PX);
    if (!near) clusters.push({ x, y, items: [i] });
    else {
      near.items.push(i);
      near.x += (x - near.x) / near.items.length;
      near.y += (y - near.y) / near.items.length;
    }
  }
  return clusters;
}

const worst = (items: Placed[]) => SEVERITY.find((s) => items.some((i) => i.status === s)) ?? 'unknown';

/** The extent around a cluster's projects with a margin, so the next view splits it (projects a street apart too). */
function around(items: Placed[]): Extent {
  const xs = items.map((i) => i.lng);
  const ys = items.map((i) => i.lat);
  const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const half = Math.max(0.1, (Math.max(...xs) - Math.min(...xs)) * 0.7, (Math.max(...ys) - Math.min(...ys)) * 0.7);
  return [cx - half, cy - half, cx + half, cy + half];
}

function ringPath(ring: number[], proj: ReturnType<typeof projection>) {
  let d = '';
  for (let i = 0; i < ring.length; i += 2) d += `${i ? 'L' : 'M'}${proj.x(ring[i]).toFixed(1)},${proj.y(ring[i + 1]).toFixed(1)}`;
  return `${d}Z`;
}

const THEMES = {
  light: { sea: '#eef4fb', land: '#fff', border: '#b7c9e2', text: '#262626', sub: '#595959', halo: '#fff' },
  dark: { sea: 'transparent', land: '#0d2a4d', border: '#2f6db5', text: '#e6f4ff', sub: '#9cc3f0', halo: '#061326' },
} as const;

/**
 * The offline map of China (provinces from a bundled outline, no tiles) with the projects as markers by status;
 * markers close together cluster and a click on a cluster zooms to it. projectindex shows it light, the big screen dark.
 */
export function ProjectMap<T extends MapPoint>({ items, theme = 'light', hover, onHover, onEnter, detail }: {
  items: T[];
  theme?: keyof typeof THEMES;
  hover: number | null;
  onHover(id: number | null): void;
  onEnter?(id: number): void;
  /** the second line under a hovered marker */
  detail?(item: T): string;
}) {
  const c = THEMES[theme];
  const [extent, setExtent] = useState<Extent>(CHINA);
  const proj = useMemo(() => projection(extent), [extent]);
  const provinces = useMemo(() => china.provinces.map((p) => ({ name: p.name, d: p.rings.map((r) => ringPath(r, proj)).join('') })), [proj]);
  const placed = useMemo(() => items.filter((i): i is T & { lng: number; lat: number } => i.lng !== null && i.lat !== null), [items]);
  const clusters = useMemo(() => clusterize(placed, proj), [placed, proj]);
  // a label that would overlap an earlier one is left to the hover
  const labelled = useMemo(() => {
    const boxes: { x: number; y: number; w: number }[] = [];
    const out = new Set<number>();
    for (const cl of clusters) {
      const w = cl.items.length > 1 ? 28 : (cl.items[0].alias || cl.items[0].name).length * 12;
      if (cl.items.length === 1 && !boxes.some((o) => Math.abs(o.x - cl.x) < (o.w + w) / 2 && Math.abs(o.y - cl.y) < 18)) out.add(cl.items[0].id);
      boxes.push({ x: cl.x, y: cl.y, w });
    }
    return out;
  }, [clusters]);
  return (
    <div style={{ position: 'relative' }}>
      {extent !== CHINA && <Button size="small" style={{ position: 'absolute', top: 8, left: 8, zIndex: 1 }} onClick={() => setExtent(CHINA)}>全国</Button>}
      <svg viewBox={`0 0 ${W} ${H}`} style={{ width: '100%', background: c.sea, display: 'block' }} data-testid="project-map">
        <g data-testid="base-map">
          {provinces.map((p) => <path key={p.name} d={p.d} fill={c.land} stroke={c.border} strokeWidth={0.8} strokeLinejoin="round"><title>{p.name}</title></path>)}
        </g>
        {clusters.map((cl) => {
          if (cl.items.length > 1) {
            const names = cl.items.map((i) => i.alias || i.name);
            return (
              <g key={`c${cl.items[0].id}`} transform={`translate(${cl.x},${cl.y})`} style={{ cursor: 'zoom-in' }} data-testid="map-cluster"
                onClick={() => setExtent(around(cl.items))}>
                <circle r={14} fill={COLORS[worst(cl.items)]} stroke={c.halo} strokeWidth={3} />
                <text y={4} textAnchor="middle" fontSize={12} fill="#fff" fontWeight={600}>{cl.items.length}</text>
                <title>{`${names.join('、')}（点击放大）`}</title>
              </g>
            );
          }
          const i = cl.items[0] as T & Placed;
          return (
            <g key={i.id} transform={`translate(${cl.x},${cl.y})`} style={{ cursor: onEnter ? 'pointer' : 'default' }} data-testid="map-marker"
              onMouseEnter={() => onHover(i.id)} onMouseLeave={() => onHover(null)} onClick={() => onEnter?.(i.id)}>
              <circle r={hover === i.id ? 10 : 7} fill={COLORS[i.status]} stroke={c.halo} strokeWidth={2} />
              {(labelled.has(i.id) || hover === i.id) && <text y={-12} textAnchor="middle" fontSize={12} fill={c.text} fontWeight={hover === i.id ? 600 : 400} paintOrder="stroke" stroke={c.halo} strokeWidth={3}>{i.alias || i.name}</text>}
              <title>{i.alias || i.name}</title>
              {hover === i.id && detail && <text y={22} textAnchor="middle" fontSize={11} fill={c.sub} paintOrder="stroke" stroke={c.halo} strokeWidth={3}>{detail(i)}</text>}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

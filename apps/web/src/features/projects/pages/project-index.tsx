import { useMemo, useState } from 'react';
import china from '../assets/china-provinces.json';
import { Badge, Button, Card, Col, Empty, List, Row, Space, Tag, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { ProjectMapItem, ProjectMapStatus } from '@kelvin/contracts';
import { PageContainer } from '../../../components/page';
import { useProject } from '../../../stores/project';
import { projectApi, projectKeys } from '../api';

const COLORS: Record<ProjectMapStatus, string> = { normal: '#52c41a', alarm: '#f5222d', offline: '#8c8c8c', empty: '#d9d9d9', unknown: '#faad14' };
const W = 800;
const H = 560;
const PAD = 30;
/** markers closer than this (px) are drawn as one cluster */
const CLUSTER_PX = 36;
/** worst first: a cluster shows the state that needs attention */
const SEVERITY: ProjectMapStatus[] = ['alarm', 'offline', 'unknown', 'normal', 'empty'];
const CHINA: Extent = [73, 17, 135.5, 54];

type Extent = [number, number, number, number];
type Placed = ProjectMapItem & { lng: number; lat: number };
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

/** projectindex (地图总览): projects placed by their coordinates with their status, and a list beside. */
export default function ProjectIndex() {
  const navigate = useNavigate();
  const map = useQuery({ queryKey: projectKeys.map, queryFn: projectApi.map, refetchInterval: 60_000 });
  const items = useMemo(() => map.data?.items ?? [], [map.data]);
  const labels = map.data?.statusLabels;
  const [extent, setExtent] = useState<Extent>(CHINA);
  const proj = useMemo(() => projection(extent), [extent]);
  const provinces = useMemo(() => china.provinces.map((p) => ({ name: p.name, d: p.rings.map((r) => ringPath(r, proj)).join('') })), [proj]);
  const [hover, setHover] = useState<number | null>(null);
  const enter = (id: number) => {
    void useProject.getState().choose(id);
    navigate('/project/projectview2');
  };
  const unplaced = items.filter((i) => i.lng === null || i.lat === null);
  const placed = useMemo(() => items.filter((i): i is Placed => i.lng !== null && i.lat !== null), [items]);
  const clusters = useMemo(() => clusterize(placed, proj), [placed, proj]);
  // a label that would overlap an earlier one is left to the hover
  const labelled = useMemo(() => {
    const boxes: { x: number; y: number; w: number }[] = [];
    const out = new Set<number>();
    for (const c of clusters) {
      const w = c.items.length > 1 ? 28 : (c.items[0].alias || c.items[0].name).length * 12;
      if (c.items.length === 1 && !boxes.some((o) => Math.abs(o.x - c.x) < (o.w + w) / 2 && Math.abs(o.y - c.y) < 18)) out.add(c.items[0].id);
      boxes.push({ x: c.x, y: c.y, w });
    }
    return out;
  }, [clusters]);
  return (
    <PageContainer title="地图总览" extra={labels && (
      <Space>{(Object.keys(COLORS) as ProjectMapStatus[]).map((s) => <Badge key={s} color={COLORS[s]} text={labels[s]} />)}</Space>
    )}>
      <Row gutter={12}>
        <Col xs={24} lg={16}>
          <Card size="small" loading={map.isLoading} styles={{ body: { padding: 0 } }}>
            {!placed.length && !map.isLoading && <Empty style={{ padding: '24px 0 0' }} description="项目还没有经纬度，请在项目编辑中填写" />}
            <div style={{ position: 'relative' }}>
              {extent !== CHINA && <Button size="small" style={{ position: 'absolute', top: 8, left: 8, zIndex: 1 }} onClick={() => setExtent(CHINA)}>全国</Button>}
              <svg viewBox={`0 0 ${W} ${H}`} style={{ width: '100%', background: '#eef4fb', display: 'block' }} data-testid="project-map">
                <g data-testid="base-map">
                  {provinces.map((p) => <path key={p.name} d={p.d} fill="#fff" stroke="#b7c9e2" strokeWidth={0.8} strokeLinejoin="round"><title>{p.name}</title></path>)}
                </g>
                {clusters.map((c) => {
                  if (c.items.length > 1) {
                    const names = c.items.map((i) => i.alias || i.name);
                    return (
                      <g key={`c${c.items[0].id}`} transform={`translate(${c.x},${c.y})`} style={{ cursor: 'zoom-in' }} data-testid="map-cluster"
                        onClick={() => setExtent(around(c.items))}>
                        <circle r={14} fill={COLORS[worst(c.items)]} stroke="#fff" strokeWidth={3} />
                        <text y={4} textAnchor="middle" fontSize={12} fill="#fff" fontWeight={600}>{c.items.length}</text>
                        <title>{`${names.join('、')}（点击放大）`}</title>
                      </g>
                    );
                  }
                  const i = c.items[0];
                  return (
                    <g key={i.id} transform={`translate(${c.x},${c.y})`} style={{ cursor: 'pointer' }} data-testid="map-marker"
                      onMouseEnter={() => setHover(i.id)} onMouseLeave={() => setHover(null)} onClick={() => enter(i.id)}>
                      <circle r={hover === i.id ? 10 : 7} fill={COLORS[i.status]} stroke="#fff" strokeWidth={2} />
                      {(labelled.has(i.id) || hover === i.id) && <text y={-12} textAnchor="middle" fontSize={12} fill="#262626" fontWeight={hover === i.id ? 600 : 400} paintOrder="stroke" stroke="#fff" strokeWidth={3}>{i.alias || i.name}</text>}
                      <title>{i.alias || i.name}</title>
                      {hover === i.id && <text y={22} textAnchor="middle" fontSize={11} fill="#595959" paintOrder="stroke" stroke="#fff" strokeWidth={3}>{labels?.[i.status]} · 设备 {i.counts.devices ?? '—'} · 在线率 {i.counts.onlineRate ?? '—'}%</text>}
                    </g>
                  );
                })}
              </svg>
            </div>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={`项目（${items.length}）`} styles={{ body: { maxHeight: 520, overflow: 'auto', padding: 0 } }}>
            <List dataSource={items} locale={{ emptyText: '暂无项目' }} renderItem={(i) => (
              <List.Item onMouseEnter={() => setHover(i.id)} onMouseLeave={() => setHover(null)} style={{ padding: '8px 12px', background: hover === i.id ? '#f0f5ff' : undefined }}
                actions={[<Button key="go" type="link" size="small" onClick={() => enter(i.id)}>进入</Button>]}>
                <List.Item.Meta
                  title={<Space><Badge color={COLORS[i.status]} />{i.alias || i.name}{unplaced.includes(i) && <Tooltip title="未填写经纬度，地图上不显示"><Tag>无坐标</Tag></Tooltip>}</Space>}
                  description={`${labels?.[i.status] ?? ''} · 楼栋 ${i.counts.buildings} · 房间 ${i.counts.rooms} · 设备 ${i.counts.devices ?? '—'}${i.address ? ` · ${i.address}` : ''}`} />
              </List.Item>
            )} />
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}

import { useMemo, useState } from 'react';
import { Badge, Button, Card, Col, Empty, List, Row, Space, Tag, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { ProjectMapItem, ProjectMapStatus } from '@kelvin/contracts';
import { PageContainer } from '../../../components/page';
import { useProject } from '../../../stores/project';
import { projectApi, projectKeys } from '../api';

const COLORS: Record<ProjectMapStatus, string> = { normal: '#52c41a', alarm: '#f5222d', offline: '#8c8c8c', empty: '#d9d9d9', unknown: '#faad14' };
const W = 800;
const H = 520;
const PAD = 50;

/** Longitude/latitude → SVG coordinates over the projects' own extent (no tiles: works offline). */
function useProjection(items: ProjectMapItem[]) {
  return useMemo(() => {
    const placed = items.filter((i) => i.lng !== null && i.lat !== null);
    if (!placed.length) return null;
    let [minX, maxX] = [Math.min(...placed.map((p) => p.lng!)), Math.max(...placed.map((p) => p.lng!))];
    let [minY, maxY] = [Math.min(...placed.map((p) => p.lat!)), Math.max(...placed.map((p) => p.lat!))];
    const span = Math.max(maxX - minX, maxY - minY, 0.5);
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    [minX, maxX, minY, maxY] = [cx - span / 2, cx + span / 2, cy - span / 2, cy + span / 2];
    const sx = (W - 2 * PAD) / (maxX - minX);
    const sy = (H - 2 * PAD) / (maxY - minY);
    const s = Math.min(sx, sy);
    const x = (lng: number) => W / 2 + (lng - cx) * s;
    const y = (lat: number) => H / 2 - (lat - cy) * s;
    const step = span > 20 ? 5 : span > 5 ? 1 : span > 1 ? 0.5 : 0.1;
    const grid = { lngs: [] as number[], lats: [] as number[] };
    for (let v = Math.ceil((cx - (W / 2) / s) / step) * step; v <= cx + (W / 2) / s; v += step) grid.lngs.push(Number(v.toFixed(4)));
    for (let v = Math.ceil((cy - (H / 2) / s) / step) * step; v <= cy + (H / 2) / s; v += step) grid.lats.push(Number(v.toFixed(4)));
    return { x, y, grid };
  }, [items]);
}

/** projectindex (地图总览): projects placed by their coordinates with their status, and a list beside. */
export default function ProjectIndex() {
  const navigate = useNavigate();
  const map = useQuery({ queryKey: projectKeys.map, queryFn: projectApi.map, refetchInterval: 60_000 });
  const items = useMemo(() => map.data?.items ?? [], [map.data]);
  const labels = map.data?.statusLabels;
  const proj = useProjection(items);
  const [hover, setHover] = useState<number | null>(null);
  const enter = (id: number) => {
    void useProject.getState().choose(id);
    navigate('/project/projectview2');
  };
  const unplaced = items.filter((i) => i.lng === null || i.lat === null);
  // Labels that would overlap an earlier one are left to the hover (projects of one city sit close together).
  const labelled = useMemo(() => {
    const boxes: { x: number; y: number; w: number }[] = [];
    const out = new Set<number>();
    if (!proj) return out;
    for (const i of items) {
      if (i.lng === null || i.lat === null) continue;
      const b = { x: proj.x(i.lng), y: proj.y(i.lat), w: (i.alias || i.name).length * 12 };
      if (boxes.some((o) => Math.abs(o.x - b.x) < (o.w + b.w) / 2 && Math.abs(o.y - b.y) < 16)) continue;
      boxes.push(b);
      out.add(i.id);
    }
    return out;
  }, [items, proj]);
  return (
    <PageContainer title="地图总览" extra={labels && (
      <Space>{(Object.keys(COLORS) as ProjectMapStatus[]).map((s) => <Badge key={s} color={COLORS[s]} text={labels[s]} />)}</Space>
    )}>
      <Row gutter={12}>
        <Col xs={24} lg={16}>
          <Card size="small" loading={map.isLoading} styles={{ body: { padding: 0 } }}>
            {!proj ? <Empty style={{ padding: 60 }} description="项目还没有经纬度，请在项目编辑中填写" /> : (
              <svg viewBox={`0 0 ${W} ${H}`} style={{ width: '100%', background: '#f0f5ff', display: 'block' }} data-testid="project-map">
                {proj.grid.lngs.map((v) => (
                  <g key={`x${v}`}><line x1={proj.x(v)} x2={proj.x(v)} y1={0} y2={H} stroke="#d6e4ff" /><text x={proj.x(v) + 2} y={H - 4} fontSize={10} fill="#8c8c8c">{v}°E</text></g>
                ))}
                {proj.grid.lats.map((v) => (
                  <g key={`y${v}`}><line y1={proj.y(v)} y2={proj.y(v)} x1={0} x2={W} stroke="#d6e4ff" /><text x={2} y={proj.y(v) - 2} fontSize={10} fill="#8c8c8c">{v}°N</text></g>
                ))}
                {items.filter((i) => i.lng !== null && i.lat !== null).map((i) => (
                  <g key={i.id} transform={`translate(${proj.x(i.lng!)},${proj.y(i.lat!)})`} style={{ cursor: 'pointer' }}
                    onMouseEnter={() => setHover(i.id)} onMouseLeave={() => setHover(null)} onClick={() => enter(i.id)}>
                    <circle r={hover === i.id ? 11 : 8} fill={COLORS[i.status]} stroke="#fff" strokeWidth={2} />
                    {(labelled.has(i.id) || hover === i.id) && <text y={-14} textAnchor="middle" fontSize={12} fill="#262626" fontWeight={hover === i.id ? 600 : 400}>{i.alias || i.name}</text>}
                    <title>{i.alias || i.name}</title>
                    {hover === i.id && <text y={24} textAnchor="middle" fontSize={11} fill="#595959">{labels?.[i.status]} · 设备 {i.counts.devices ?? '—'} · 在线率 {i.counts.onlineRate ?? '—'}%</text>}
                  </g>
                ))}
              </svg>
            )}
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

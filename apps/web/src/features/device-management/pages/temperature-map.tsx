import { useState } from 'react';
import { Card, Empty, Select, Space, Spin, Statistic, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { fieldOf, type AreaTreeNode, type DeviceRow } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys } from '../../devices';
import { useAreaTree } from '../../projects';

/** Colour bands of room temperature (°C): cold blue → comfortable green → hot red. */
const BANDS: { below: number; color: string; label: string }[] = [
  { below: 16, color: '#1d39c4', label: '< 16' },
  { below: 18, color: '#4096ff', label: '16–18' },
  { below: 20, color: '#36cfc9', label: '18–20' },
  { below: 24, color: '#52c41a', label: '20–24' },
  { below: 26, color: '#fadb14', label: '24–26' },
  { below: 28, color: '#fa8c16', label: '26–28' },
  { below: Infinity, color: '#f5222d', label: '≥ 28' },
];
const colorOf = (t: number) => BANDS.find((b) => t < b.below)!.color;
const DARK_TEXT = new Set(['#fadb14', '#36cfc9', '#52c41a']);

interface RoomTemp {
  room: AreaTreeNode;
  /** average room temperature of the room's reporting devices (online first; else the last offline value) */
  temp: number | null;
  online: boolean;
  set: number | null;
  devices: DeviceRow[];
  at: number | null;
}

function roomTemp(room: AreaTreeNode, devices: DeviceRow[]): RoomTemp {
  const sensing = devices.filter((d) => fieldOf(d.deviceType, 'f03') && typeof d.fields.f03 === 'number');
  const live = sensing.filter((d) => d.online);
  const use = live.length ? live : sensing;
  const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);
  return {
    room,
    temp: mean(use.map((d) => d.fields.f03 as number)),
    online: live.length > 0,
    set: mean(use.map((d) => d.fields.f04).filter((v): v is number => typeof v === 'number')),
    devices: sensing,
    at: use.reduce<number | null>((m, d) => (d.lastReportAt && (!m || d.lastReportAt > m) ? d.lastReportAt : m), null),
  };
}

function Cell({ r }: { r: RoomTemp }) {
  const navigate = useNavigate();
  const bg = r.temp === null ? '#f5f5f5' : r.online ? colorOf(r.temp) : '#d9d9d9';
  const dark = r.temp === null || !r.online || DARK_TEXT.has(bg);
  const tip = r.temp === null ? '没有室温数据' : `${r.online ? '' : '离线，最后数据 · '}${r.devices.length} 台设备 · ${r.at ? formatDateTime(r.at) : ''}`;
  return (
    <Tooltip title={`${r.room.label}：${tip}`}>
      <div data-testid="temp-cell" data-temp={r.temp ?? ''} onClick={() => r.devices[0] && navigate(`/device/${r.devices[0].deviceType}`)}
        style={{
          width: 92, height: 64, borderRadius: 6, background: bg, color: dark ? '#262626' : '#fff', padding: '4px 6px', fontSize: 12,
          cursor: r.devices.length ? 'pointer' : 'default', display: 'flex', flexDirection: 'column', justifyContent: 'space-between',
          border: r.temp !== null && !r.online ? '1px dashed #8c8c8c' : '1px solid transparent',
        }}>
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.room.label}</span>
        <b style={{ fontSize: 18, lineHeight: '20px' }}>{r.temp === null ? '—' : `${r.temp.toFixed(1)}°`}</b>
        <span style={{ opacity: 0.85 }}>{r.temp === null ? '无数据' : !r.online ? '离线' : r.set !== null ? `设定 ${r.set}°` : ''}</span>
      </div>
    </Tooltip>
  );
}

/** temperatureMap_n (温度分布图): each room of a building as a cell coloured by its room temperature, floor by floor. */
export default function TemperatureMap() {
  const projectId = useProjectId();
  const [buildingId, setBuildingId] = useState<number | null>(null);
  const [floorId, setFloorId] = useState<number | null>(null);
  // the project's buildings, then the chosen building's floors and rooms: a large project's rooms are not all loaded
  const tree = useAreaTree(projectId, 1);
  const buildings = tree.data?.[0]?.children.filter((b) => b.level === 'building') ?? [];
  const chosen = buildings.find((b) => b.id === buildingId) ?? buildings[0];
  const buildingTree = useAreaTree(chosen?.id ?? null);
  const building = buildingTree.data?.[0] ?? (chosen && { ...chosen, children: [] });
  const view = useQuery({ queryKey: deviceKeys.byArea(building?.id), queryFn: () => deviceApi.byArea(building!.id), enabled: !!building, refetchInterval: 60_000 });

  if (projectId === null) return <NoProject title="温度分布图" />;
  const byArea = new Map((view.data ?? []).map((g) => [g.areaId, g.devices]));
  const floors = [...(building?.children ?? [])].filter((f) => !floorId || f.id === floorId).reverse(); // top floor first, as in the building
  const rows = floors.map((f) => ({ floor: f, rooms: f.children.map((r) => roomTemp(r, byArea.get(r.id) ?? [])) }));
  const temps = rows.flatMap((x) => x.rooms).filter((r) => r.online && r.temp !== null).map((r) => r.temp!);
  const stat = (v: number | null) => (v === null ? '—' : v.toFixed(1));

  return (
    <PageContainer title="温度分布图" extra={(
      <Space>
        <Select style={{ width: 160 }} placeholder="楼栋" value={building?.id} loading={tree.isLoading} data-testid="temp-building"
          onChange={(v: number) => { setBuildingId(v); setFloorId(null); }} options={buildings.map((b) => ({ value: b.id, label: b.label }))} />
        <Select style={{ width: 140 }} allowClear placeholder="全部楼层" value={floorId ?? undefined} onChange={(v?: number) => setFloorId(v ?? null)}
          options={(building?.children ?? []).map((f) => ({ value: f.id, label: f.label }))} />
      </Space>
    )}>
      <Spin spinning={tree.isLoading || buildingTree.isLoading || view.isLoading}>
        {!building ? <Card><Empty description="项目下还没有楼栋" /></Card> : (
          <Card size="small" title={(
            <Space size={32}>
              <span data-testid="temp-building-name">{building.label}</span>
              <Statistic title="在线有室温的房间" value={temps.length} styles={{ content: { fontSize: 16 } }} />
              <Statistic title="平均" value={stat(temps.length ? temps.reduce((a, b) => a + b, 0) / temps.length : null)} suffix="°C" styles={{ content: { fontSize: 16 } }} />
              <Statistic title="最低" value={stat(temps.length ? Math.min(...temps) : null)} suffix="°C" styles={{ content: { fontSize: 16 } }} />
              <Statistic title="最高" value={stat(temps.length ? Math.max(...temps) : null)} suffix="°C" styles={{ content: { fontSize: 16 } }} />
            </Space>
          )}>
            <Space size={4} style={{ marginBottom: 12 }} wrap data-testid="temp-legend">
              {BANDS.map((b) => <span key={b.label} style={{ background: b.color, color: DARK_TEXT.has(b.color) ? '#262626' : '#fff', padding: '0 8px', borderRadius: 4, fontSize: 12 }}>{b.label} °C</span>)}
              <span style={{ background: '#d9d9d9', padding: '0 8px', borderRadius: 4, fontSize: 12 }}>离线（最后数据）</span>
              <span style={{ background: '#f5f5f5', padding: '0 8px', borderRadius: 4, fontSize: 12 }}>无数据</span>
            </Space>
            {!rows.length ? !buildingTree.isLoading && <Empty description="该楼栋下还没有楼层" /> : rows.map(({ floor, rooms }) => (
              <div key={floor.id} style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 8 }} data-testid="temp-floor">
                <Typography.Text strong style={{ width: 56, flex: 'none' }}>{floor.label}</Typography.Text>
                <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap' }}>
                  {rooms.length ? rooms.map((r) => <Cell key={r.room.id} r={r} />) : <Typography.Text type="secondary">无房间</Typography.Text>}
                </div>
              </div>
            ))}
          </Card>
        )}
      </Spin>
    </PageContainer>
  );
}

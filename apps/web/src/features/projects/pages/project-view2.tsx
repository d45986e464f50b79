import { useState } from 'react';
import { Badge, Card, Empty, Space, Spin, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { AreaTreeNode, DeviceRow } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { projectApi, projectKeys, useAreaTree } from '../api';
import { deviceApi, deviceKeys } from '../../devices';
import { useIsMobile } from '../../../lib/ui';

const GATEWAYS = new Set(['gateway', 'manager']);
const num = (v: unknown) => (typeof v === 'number' ? v : null);

/** One device as a line of a room card: online, power, room / set temperature; click opens its control page. */
function DeviceLine({ d }: { d: DeviceRow }) {
  const navigate = useNavigate();
  const power = num(d.fields.f00);
  const room = num(d.fields.f03);
  const set = num(d.fields.f04);
  return (
    <Tooltip title={`${d.deviceName} · ${d.typeName} ${d.deviceCode} · 最后上报 ${d.lastReportAt ? formatDateTime(d.lastReportAt) : '无'}`}>
      <div data-testid="room-device" data-type={d.deviceType} onClick={() => navigate(GATEWAYS.has(d.deviceType) ? '/device/gatewayControl' : `/device/${d.deviceType}?device=${d.id}`)}
        style={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: '0 6px', cursor: 'pointer', fontSize: 12, lineHeight: '20px', padding: '1px 0' }}>
        <Badge status={d.online ? 'success' : 'default'} />
        {/* the whole name, wrapped at word boundaries: truncated names all looked alike ("101室 地暖…") */}
        <span data-testid="room-device-name" style={{ flex: '1 1 120px', minWidth: 0, overflowWrap: 'anywhere' }}>{d.deviceName}</span>
        {power !== null && <Tag color={power ? 'green' : undefined} style={{ marginInlineEnd: 0 }}>{power ? '开' : '关'}</Tag>}
        {room !== null && <span title="室内温度">{room.toFixed(1)}°C</span>}
        {set !== null && <span title="设定温度" style={{ color: '#1677ff' }}>→{set}°C</span>}
        {!d.online && <Tag color="red" style={{ marginInlineEnd: 0 }}>离线</Tag>}
      </div>
    </Tooltip>
  );
}

function RoomCard({ room, devices }: { room: AreaTreeNode; devices: DeviceRow[] }) {
  const mobile = useIsMobile();
  const offline = devices.filter((d) => !d.online).length;
  return (
    <Card size="small" data-testid="room-card" title={<span title={room.label} style={{ whiteSpace: 'normal' }}>{room.label}</span>} style={{ width: mobile ? '100%' : 260, borderColor: offline ? '#ffccc7' : undefined }}
      extra={devices.length ? <span style={{ fontSize: 12, color: offline ? '#cf1322' : '#389e0d' }}>{devices.length - offline}/{devices.length} 在线</span> : null}
      styles={{ body: { padding: '6px 10px', minHeight: 40 } }}>
      {devices.length ? devices.map((d) => <DeviceLine key={d.id} d={d} />) : <Typography.Text type="secondary" style={{ fontSize: 12 }}>无设备</Typography.Text>}
    </Card>
  );
}

/** projectview2 (项目视图, pinned tab): the project's buildings → floors → rooms with each room's device state. */
export default function ProjectView2() {
  const projectId = useProjectId();
  const enabled = projectId !== null;
  // the buildings first; the chosen building's floors, rooms and devices when it is shown (a 10,000-room project's
  // rooms and devices would be megabytes, and one building is what a screen holds)
  const tree = useAreaTree(projectId, 1);
  const [chosen, setChosen] = useState<number | null>(null);
  const project = tree.data?.[0];
  const buildings = project?.children ?? [];
  const active = buildings.find((b) => b.id === chosen) ?? buildings[0];
  const building = useAreaTree(active?.id ?? null, 2);
  const own = useQuery({ queryKey: deviceKeys.byArea(projectId, { own: true }), queryFn: () => deviceApi.byArea(projectId!, { own: true }), enabled, refetchInterval: 30_000 });
  const view = useQuery({ queryKey: deviceKeys.byArea(active?.id), queryFn: () => deviceApi.byArea(active!.id), enabled: !!active, refetchInterval: 30_000 });
  const detail = useQuery({ queryKey: projectKeys.detail(projectId), queryFn: () => projectApi.detail(projectId!), enabled, refetchInterval: 60_000 });
  if (!enabled) return <NoProject title="项目视图" />;
  const byArea = new Map((view.data ?? []).map((g) => [g.areaId, g.devices]));
  const c = detail.data?.counts;
  const atProject = own.data?.[0]?.devices ?? [];
  const b = building.data?.[0];
  return (
    <PageContainer title={`项目视图：${detail.data?.alias || project?.label || ''}`} extra={c && (
      <Space size={[16, 4]} wrap data-testid="project-stats" style={{ whiteSpace: 'nowrap' }}>
        <span>楼栋 {c.buildings}</span><span>房间 {c.rooms}</span><span>设备 {c.devices ?? '—'}</span>
        <span>在线 <b style={{ color: '#389e0d' }}>{c.online ?? '—'}</b></span><span>在线率 {c.onlineRate ?? '—'}%</span>
      </Space>
    )}>
      <Spin spinning={tree.isLoading}>
        {!buildings.length ? <Card><Empty description={tree.isLoading ? '加载中' : '项目下还没有楼栋，请在「楼宇与设备」中新建或导入'} /></Card> : (
          <Card size="small">
            {atProject.length > 0 && <div style={{ marginBottom: 8 }}><RoomCard room={{ ...project!, label: '项目级设备' }} devices={atProject} /></div>}
            <Tabs activeKey={String(active!.id)} onChange={(k) => setChosen(Number(k))} items={buildings.map((t) => ({
              key: String(t.id),
              label: t.label,
              children: t.id !== active!.id ? null : (
                <Spin spinning={building.isLoading || view.isLoading}>
                  <div style={{ display: 'flex', flexDirection: 'column', gap: 12, minHeight: 80 }}>
                    {(byArea.get(t.id)?.length ?? 0) > 0 && <RoomCard room={{ ...t, label: `${t.label}（楼栋设备）` }} devices={byArea.get(t.id)!} />}
                    {b && b.children.length === 0 && <Empty description="该楼栋下还没有楼层" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
                    {b?.children.map((f) => (
                      <div key={f.id}>
                        <Typography.Title level={5} style={{ margin: '0 0 6px' }}>{f.label}</Typography.Title>
                        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
                          {(byArea.get(f.id)?.length ?? 0) > 0 && <RoomCard room={{ ...f, label: `${f.label}（楼层设备）` }} devices={byArea.get(f.id)!} />}
                          {f.children.map((r) => <RoomCard key={r.id} room={r} devices={byArea.get(r.id) ?? []} />)}
                          {f.children.length === 0 && <Typography.Text type="secondary">无房间</Typography.Text>}
                        </div>
                      </div>
                    ))}
                  </div>
                </Spin>
              ),
            }))} />
          </Card>
        )}
      </Spin>
    </PageContainer>
  );
}

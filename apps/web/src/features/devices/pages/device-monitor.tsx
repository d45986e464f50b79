import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Empty, Segmented, Space, Typography } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { DEVICE_TYPE_BY_CODE, fieldDisplay, fieldOf } from '@kelvin/contracts/device-registry';
import type { DeviceRow } from '@kelvin/contracts/device';
import { DataTable, type ListParams } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useCan } from '../../../lib/ui';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys, useDeviceTypes, useLiveDevices } from '../api';
import { BUILDINGS_AND_FLOORS, buildingFloorOptions, useAreaTree } from '../../projects';
import { ControlDrawer } from '../components/control-drawer';
import { DeviceDetailDrawer } from '../components/device-detail';
import { OnlineBadge, isOnline, useNow } from '../components/device-bits';
import { MonitorStatistic, OfflineMessages } from '../components/monitor-extras';

/**
 * /device/devicemonitor and every device-type page (device20020 … systemController_n): one monitor driven by the
 * device registry — a server-paginated table of the type's list fields with Chinese labels and units, online badges
 * that follow the heartbeat window, live updates over SSE, the control drawer and the device detail with history;
 * above it the statistic strip (spec §7.5: totals, powered on, alarms, average room temperature) and beside it the
 * offline messages and the .xlsx export, all over the same filters as the table.
 */
export default function DeviceMonitor() {
  const { pathname } = useLocation();
  const routeCode = pathname.split('/').filter(Boolean).at(-1) ?? '';
  const fixedType = DEVICE_TYPE_BY_CODE.has(routeCode) ? routeCode : null;
  const projectId = useProjectId();
  const now = useNow();
  useLiveDevices(projectId);

  const types = useDeviceTypes(projectId, { refetchInterval: 30_000 });
  const tree = useAreaTree(projectId, BUILDINGS_AND_FLOORS);
  const [chosen, setChosen] = useState<string | null>(null);
  const type = fixedType ?? (chosen && types.data?.some((t) => t.code === chosen) ? chosen : null)
    ?? types.data?.find((t) => t.total > 0)?.code ?? types.data?.[0]?.code ?? null;
  const def = type ? DEVICE_TYPE_BY_CODE.get(type) : undefined;
  const counts = types.data?.find((t) => t.code === type);
  const canControlType = useCan(`${type}:control`);
  const canControlAll = useCan('devicemonitor:control');
  const canControl = canControlType || canControlAll;
  const menuCode = type === 'gateway' || type === 'manager' ? 'gatewayControl' : type;
  const canExportType = useCan(`${menuCode}:export`);
  // the filters the table applied last (its page left out): the statistic and offline messages follow them
  const [shown, setShown] = useState<Record<string, string | number | undefined>>({});
  const fetchPage = useCallback((p: ListParams) => {
    const { pageNo: _n, pageSize: _s, ...filters } = p;
    setShown((prev) => (JSON.stringify(prev) === JSON.stringify(filters) ? prev : filters));
    return deviceApi.list(p);
  }, []);
  const [controlId, setControlId] = useState<number | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  // ?device=<id> (a device clicked on 项目视图) opens that device's detail
  const [search, setSearch] = useSearchParams();
  const linkedId = Number(search.get('device')) || null;
  const areas = useMemo(() => buildingFloorOptions(tree.data), [tree.data]);

  const columns = useMemo(() => {
    if (!def) return [];
    return [
      {
        title: '设备', key: 'name', fixed: 'left' as const, width: 200,
        render: (_: unknown, r: DeviceRow) => (
          <div>
            <Typography.Link onClick={() => setDetailId(r.id)}>{r.deviceName}</Typography.Link>
            <div style={{ color: '#999', fontSize: 12 }}>{r.deviceCode}</div>
          </div>
        ),
      },
      { title: '位置', dataIndex: 'areaPath', width: 170, render: (v: string) => v || '—' },
      { title: '状态', key: 'online', width: 80, render: (_: unknown, r: DeviceRow) => <OnlineBadge online={isOnline(r, now)} /> },
      ...def.listFields.map((code) => ({
        title: fieldOf(def, code)?.label ?? code,
        key: code,
        width: 120,
        render: (_: unknown, r: DeviceRow) => <span data-testid={`cell-${r.id}-${code}`}>{r.fields[code] === undefined ? '—' : fieldDisplay(def, code, r.fields[code])}</span>,
      })),
      { title: '最后上报', dataIndex: 'lastReportAt', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
      {
        title: '操作', key: 'op', fixed: 'right' as const, width: 120,
        render: (_: unknown, r: DeviceRow) => (
          <Space size={4}>
            {canControl && <Button type="link" size="small" onClick={() => setControlId(r.id)}>控制</Button>}
            <Button type="link" size="small" onClick={() => setDetailId(r.id)}>详情</Button>
          </Space>
        ),
      },
    ];
  }, [def, now, canControl]);

  // before the table's first answer: the type of the project, unfiltered
  const extrasQuery = projectId !== null && def && shown.deviceType === def.code && shown.projectId === projectId ? shown : { projectId: projectId ?? undefined, deviceType: def?.code };

  if (projectId === null) return <NoProject title="设备监控" />;
  return (
    <PageContainer title={def?.name ?? '设备监控'}>
      {!fixedType && (types.data?.length ?? 0) > 0 && (
        <Segmented value={type ?? undefined} onChange={(v) => setChosen(v as string)} style={{ alignSelf: 'flex-start', flexWrap: 'wrap' }}
          options={types.data!.map((t) => ({ value: t.code, label: `${t.name}（${t.online}/${t.total}）` }))} />
      )}
      {def?.sleeps && <Alert type="info" showIcon title="4G 设备间歇唤醒上报；离线期间下发的指令会在设备下次唤醒时送达。" />}
      {def && counts && <MonitorStatistic query={extrasQuery} hasPower={!!fieldOf(def, 'f00')} hasRoomTemp={!!fieldOf(def, 'f03')} />}
      {!def ? <Empty description={types.isLoading ? '加载中…' : '该项目没有设备类型'} /> : (
        <DataTable<DeviceRow>
          key={def.code}
          queryKey={deviceKeys.list('monitor')}
          fetchPage={fetchPage}
          toolbar={<OfflineMessages query={extrasQuery} />}
          exportUrl={deviceApi.monitorExportUrl}
          exportCode={canExportType ? `${menuCode}:export` : 'devicemonitor:export'}
          params={{ projectId, deviceType: def.code }}
          rowKey="id"
          scrollX={640 + def.listFields.length * 120}
          filters={[
            { name: 'keyword', label: '名称/编号' },
            { name: 'areaId', label: '楼栋/楼层', kind: 'select', options: areas, width: 180 },
            { name: 'online', label: '在线', kind: 'select', options: [{ label: '在线', value: 1 }, { label: '离线', value: 0 }], width: 110 },
          ]}
          columns={columns}
        />
      )}
      <ControlDrawer deviceId={controlId} onClose={() => setControlId(null)} />
      <DeviceDetailDrawer deviceId={detailId ?? linkedId} onClose={() => {
        setDetailId(null);
        if (linkedId) setSearch((q) => { q.delete('device'); return q; }, { replace: true });
      }} />
    </PageContainer>
  );
}

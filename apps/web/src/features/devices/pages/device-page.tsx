import { useState } from 'react';
import { Badge, Button, Card, Empty, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DEVICE_TYPE_BY_CODE, dictLabel, fieldDisplay, type DeviceRow } from '@kelvin/contracts';
import { PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { useDictLabels } from '../../dictionary';
import { deviceApi, deviceKeys, useDeviceTypes, useLiveDevices } from '../api';
import { DeviceDetailDrawer } from '../components/device-detail';
import { OnlineBadge, isOnline, useNow } from '../components/device-bits';

/** Devices of one type in the project: one card each, live (the list sits under deviceKeys.lists, which SSE reports patch). */
function TypeDevices({ projectId, type, onOpen }: { projectId: number; type: string; onOpen: (id: number) => void }) {
  const now = useNow();
  const q = useQuery({
    queryKey: [...deviceKeys.list('devicepage'), projectId, type],
    queryFn: () => deviceApi.list({ projectId, deviceType: type, pageNo: 1, pageSize: 200 }),
  });
  const def = DEVICE_TYPE_BY_CODE.get(type);
  if (q.isLoading) return <Skeleton active />;
  const rows = q.data?.rows ?? [];
  if (!rows.length) return <Empty description="本项目还没有该类型的设备" />;
  return (
    <>
      {q.data!.total > rows.length && <Typography.Paragraph type="secondary">显示前 {rows.length} 台，共 {q.data!.total} 台；全部设备请进入监控页面。</Typography.Paragraph>}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 12 }}>
        {rows.map((d: DeviceRow) => (
          <Card key={d.id} size="small" hoverable onClick={() => onOpen(d.id)} data-testid="device-card"
            title={<span title={d.deviceName}>{d.deviceName}</span>} extra={<OnlineBadge online={isOnline(d, now)} />}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>{d.deviceCode}{d.areaPath ? ` · ${d.areaPath}` : ''}</Typography.Text>
            <div style={{ marginTop: 6, display: 'grid', gridTemplateColumns: '1fr auto', rowGap: 2, columnGap: 8 }}>
              {(def?.listFields ?? []).slice(0, 4).map((f) => (
                <span key={f} style={{ display: 'contents' }}>
                  <Typography.Text type="secondary">{def?.fields.find((x) => x.code === f)?.label ?? f}</Typography.Text>
                  <span>{d.fields[f] === undefined || d.fields[f] === null ? '—' : fieldDisplay(type, f, d.fields[f])}</span>
                </span>
              ))}
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>最近上报：{d.lastReportAt ? formatDateTime(d.lastReportAt) : '从未上报'}</Typography.Text>
          </Card>
        ))}
      </div>
    </>
  );
}

/** 设备页面 (/device/devicepage/:projectId?): the project's devices by type, online/total per type, live state, into each type's monitor. */
export default function DevicePage() {
  const projectId = useProjectId();
  const types = useDeviceTypes(projectId, { refetchInterval: 30_000 });
  const labels = useDictLabels();
  const [active, setActive] = useState<string | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  useLiveDevices(projectId);
  const present = (types.data ?? []).filter((t) => t.total > 0);
  const current = present.find((t) => t.code === active) ?? present[0];
  const total = present.reduce((s, t) => s + t.total, 0);
  const online = present.reduce((s, t) => s + t.online, 0);
  const nameOf = (code: string, name: string) => dictLabel(labels.data, 'deviceType', code, name);

  return (
    <PageContainer title="设备页面" extra={projectId !== null && <Space><Tag color="blue">设备 {total} 台</Tag><Tag color="green">在线 {online} 台</Tag></Space>}>
      {projectId === null ? <Card><Empty description="请先在顶栏选择项目" /></Card> : types.isLoading ? <Card><Skeleton active /></Card> : !present.length ? (
        <Card><Empty description="本项目还没有设备" /></Card>
      ) : (
        <Card styles={{ body: { paddingTop: 4 } }}>
          <Tabs
            activeKey={current?.code}
            onChange={setActive}
            items={present.map((t) => ({
              key: t.code,
              label: <span data-testid={`type-tab-${t.code}`}>{nameOf(t.code, t.name)} <Badge count={`${t.online}/${t.total}`} color={t.online ? '#52c41a' : '#bfbfbf'} /></span>,
              children: (
                <>
                  <Space style={{ marginBottom: 12 }} wrap>
                    <Typography.Text type="secondary">{t.categoryName} · 在线 {t.online} / 共 {t.total} 台</Typography.Text>
                    <Link to={t.route}><Button size="small" type="link">进入{nameOf(t.code, t.name)}监控页面</Button></Link>
                  </Space>
                  <TypeDevices projectId={projectId} type={t.code} onOpen={setDetailId} />
                </>
              ),
            }))}
          />
        </Card>
      )}
      <DeviceDetailDrawer deviceId={detailId} onClose={() => setDetailId(null)} />
    </PageContainer>
  );
}

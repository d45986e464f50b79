import { lazy, Suspense, useMemo, useState } from 'react';
import { Checkbox, DatePicker, Descriptions, Empty, Segmented, Space, Spin, Table, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { DeviceTypeDef, FieldDef } from '@kelvin/contracts/device-types';
import { DEVICE_TYPE_BY_CODE, chartFields, fieldDisplay } from '@kelvin/contracts/device-registry';
import type { DeviceDetail, OperationLogRow } from '@kelvin/contracts/device';
import { useIsMobile } from '../../../lib/ui';
import { dayjs, formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys, useDeviceDetail } from '../api';
import { dataRange, fitToData } from './history-option';
import { CommandStatusTag, OnlineBadge, isOnline, useNow } from './device-bits';
import { AppDrawer } from '../../../components/app-drawer';

const HistoryChart = lazy(() => import('./history-chart'));
const rank = (list: string[], code: string) => (list.includes(code) ? list.indexOf(code) : list.length);

const DATA = 'data';
const RANGES = [
  { label: '有数据的时段', value: DATA, ms: 0 },
  { label: '最近 1 小时', value: 'h1', ms: 3_600_000 },
  { label: '最近 24 小时', value: 'd1', ms: 86_400_000 },
  { label: '最近 7 天', value: 'd7', ms: 7 * 86_400_000 },
  { label: '最近 30 天', value: 'd30', ms: 30 * 86_400_000 },
];

function History({ device, def, fields }: { device: DeviceDetail; def: DeviceTypeDef; fields: FieldDef[] }) {
  const [preset, setPreset] = useState<string>(DATA);
  const [custom, setCustom] = useState<[number, number] | null>(null);
  const [chosen, setChosen] = useState<string[]>(() => fields.slice(0, 2).map((f) => f.code));
  // a preset range is fixed when it is chosen (live reports do not move it), so the query key stays stable
  const rangeOf = (value: string): [number, number] => {
    const now = Date.now();
    return value === DATA ? dataRange(device, now) : [now - RANGES.find((r) => r.value === value)!.ms, now];
  };
  const [presetRange, setPresetRange] = useState(() => rangeOf(DATA));
  const range = custom ?? presetRange;
  const q = useQuery({
    queryKey: deviceKeys.history(device.id, range[0], range[1], chosen),
    queryFn: () => deviceApi.history({ deviceId: device.id, fields: chosen.join(','), from: range[0], to: range[1] }),
    enabled: chosen.length > 0,
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Segmented options={RANGES.map(({ label, value }) => ({ label, value }))} value={custom ? undefined : preset}
          onChange={(v) => {
            setPreset(v as string);
            setCustom(null);
            setPresetRange(rangeOf(v as string));
          }} />
        <DatePicker.RangePicker showTime value={custom ? [dayjs(custom[0]), dayjs(custom[1])] : null}
          onChange={(v) => setCustom(v?.[0] && v[1] ? [v[0].valueOf(), v[1].valueOf()] : null)} />
      </Space>
      <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as string[])}
        options={fields.map((f) => ({ value: f.code, label: f.unit ? `${f.label}（${f.unit}）` : f.label }))} />
      {chosen.length === 0 ? <Empty description="请选择要查看的数据" /> : q.isLoading ? <Spin /> : q.data && (
        q.data.series.every((s) => s.points.length === 0)
          ? <Empty description="所选时间内没有数据" />
          : <Suspense fallback={<Spin />}><HistoryChart def={def} series={q.data.series} range={!custom && preset === DATA ? fitToData(q.data) : [q.data.from, q.data.to]} /></Suspense>
      )}
    </Space>
  );
}

/** A device in full: state with report times, history charts (ECharts) over a chosen range, its operation log. */
export function DeviceDetailDrawer({ deviceId, onClose }: { deviceId: number | null; onClose(): void }) {
  const now = useNow();
  const mobile = useIsMobile();
  const q = useDeviceDetail(deviceId);
  const log = useQuery({
    queryKey: deviceKeys.oplog(deviceId),
    queryFn: () => deviceApi.operationLog({ deviceId: deviceId!, pageNo: 1, pageSize: 20 }),
    enabled: deviceId !== null,
  });
  const d = q.data;
  const def = d ? DEVICE_TYPE_BY_CODE.get(d.deviceType) : undefined;
  // the monitor's list fields first, so the default chart shows what the table shows
  const numeric = useMemo(() => (def ? chartFields(def).sort((a, b) => rank(def.listFields, a.code) - rank(def.listFields, b.code)) : []), [def]);
  const fieldRows = useMemo(() => {
    if (!d || !def) return [];
    const known = def.fields.map((f) => ({ code: f.code, label: f.label }));
    const unknown = Object.keys(d.fields).filter((c) => !def.fields.some((f) => f.code === c)).map((c) => ({ code: c, label: c }));
    return [...known, ...unknown];
  }, [d, def]);

  return (
    <AppDrawer open={deviceId !== null} onClose={onClose} size={mobile ? '100%' : 960} destroyOnHidden title={d ? `设备详情 · ${d.deviceName}` : '设备详情'}>
      {!d || !def ? <Empty description={q.isLoading ? '加载中…' : '设备不存在'} /> : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions size="small" column={mobile ? 1 : 3} bordered styles={{ label: { whiteSpace: 'nowrap' } }} items={[
            { key: 'code', label: '设备编号', children: d.deviceCode },
            { key: 'type', label: '设备类型', children: def.name },
            { key: 'online', label: '状态', children: <OnlineBadge online={isOnline(d, now)} /> },
            { key: 'project', label: '项目', children: d.projectName },
            { key: 'area', label: '位置', children: d.areaPath || '—' },
            { key: 'last', label: '最后上报', children: d.lastReportAt ? formatDateTime(d.lastReportAt) : '从未上报' },
          ]} />
          <Tabs items={[
            {
              key: 'history', label: '历史曲线',
              children: numeric.length ? <History device={d} def={def} fields={numeric} /> : <Empty description="该设备没有数值型数据" />,
            },
            {
              key: 'state', label: '实时数据',
              children: (
                <Table size="small" rowKey="code" pagination={false} dataSource={fieldRows} columns={[
                  { title: '字段', dataIndex: 'code', width: 80 },
                  { title: '名称', dataIndex: 'label', width: 160 },
                  { title: '当前值', key: 'v', render: (_, r) => (d.fields[r.code] === undefined ? '—' : fieldDisplay(def, r.code, d.fields[r.code])) },
                  { title: '上报时间', key: 't', width: 180, render: (_, r) => formatDateTime(d.fieldTimes[r.code]) },
                ]} />
              ),
            },
            {
              key: 'log', label: '操作日志',
              children: (
                <Table<OperationLogRow> size="small" rowKey="id" pagination={false} loading={log.isLoading} dataSource={log.data?.rows ?? []}
                  locale={{ emptyText: '暂无操作' }}
                  columns={[
                    { title: '时间', dataIndex: 'at', width: 170, render: (v) => formatDateTime(v) },
                    { title: '操作人', dataIndex: 'username', width: 110, render: (v) => v ?? '—' },
                    { title: '操作', dataIndex: 'operation', width: 110 },
                    { title: '内容', dataIndex: 'detail' },
                    { title: '结果', dataIndex: 'result', width: 100 },
                  ]} />
              ),
            },
            {
              key: 'commands', label: `待执行指令（${d.openCommands.length}）`,
              children: (
                <Table size="small" rowKey="id" pagination={false} dataSource={d.openCommands} locale={{ emptyText: '没有等待执行的指令' }} columns={[
                  { title: '时间', dataIndex: 'createdAt', width: 170, render: (v) => formatDateTime(v) },
                  { title: '内容', dataIndex: 'description' },
                  { title: '状态', dataIndex: 'status', width: 100, render: (s) => <CommandStatusTag status={s} /> },
                  { title: '有效期至', dataIndex: 'expiresAt', width: 170, render: (v) => formatDateTime(v) },
                ]} />
              ),
            },
          ]} />
        </Space>
      )}
    </AppDrawer>
  );
}

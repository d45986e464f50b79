import { useEffect, useMemo, useState } from 'react';
import { Alert, Card, DatePicker, Empty, Segmented, Select, Space, Spin, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { DATADEMO_MAX_RANGE_MS, datademoResolution, periodRange, type DatademoSeries } from '@kelvin/contracts/reports';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { formatDateTime } from '../../../lib/time';
import { datademoApi, datademoKeys } from '../api';

echarts.use([LineChart, GridComponent, TooltipComponent, DataZoomComponent, CanvasRenderer]);

type Preset = 'today' | 'day' | 'week' | 'days7' | 'month' | 'days30' | 'year' | 'custom';
const PRESETS: { value: Preset; label: string }[] = [
  { value: 'today', label: '今日' }, { value: 'day', label: '近 24 小时' }, { value: 'week', label: '本周' }, { value: 'days7', label: '近 7 天' },
  { value: 'month', label: '本月' }, { value: 'days30', label: '近 30 天' }, { value: 'year', label: '本年' }, { value: 'custom', label: '自定义' },
];
const RESOLUTION = { raw: '原始读数', hour: '每小时平均', day: '每日平均' } as const;
const HOUR = 3600_000;

/** [from, to) of a preset; `now` rounded to the minute so the query key holds still between renders. */
function rangeOf(preset: Exclude<Preset, 'custom'>, now: number): [number, number] {
  switch (preset) {
    case 'today': return [periodRange('today', now)[0], now];
    case 'day': return [now - 24 * HOUR, now];
    case 'week': return [periodRange('week', now)[0], now];
    case 'days7': return [now - 7 * 24 * HOUR, now];
    case 'month': return [periodRange('month', now)[0], now];
    case 'days30': return [now - 30 * 24 * HOUR, now];
    case 'year': return [periodRange('year', now)[0], now];
  }
}

function ReadingsChart({ data }: { data: DatademoSeries }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v} ${data.unit}`.trim() },
    grid: { left: 56, right: 24, top: 32, bottom: 64 },
    xAxis: { type: 'time', min: data.from, max: data.to },
    yAxis: { type: 'value', name: data.unit ? `${data.label}（${data.unit}）` : data.label, scale: true },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: [{ name: data.label, type: 'line', showSymbol: data.points.length < 60, data: data.points, itemStyle: { color: '#1677ff' } }],
  }), [data]);
  return <div ref={ref} style={{ height: 360, width: '100%' }} data-testid="datademo-chart" data-points={data.points.length} />;
}

/**
 * 数据示例 (datademo): pick a device of the project and one of its numeric fields, a period (raw readings up to 7 days,
 * hourly or daily means beyond, up to two years) → a line chart with data zoom and a server-paginated table, in the
 * field's unit.
 */
export default function DataDemo() {
  const projectId = useProjectId();
  const [keyword, setKeyword] = useState('');
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [preset, setPreset] = useState<Preset>('day');
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(null);
  const [now, setNow] = useState(() => Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
  useEffect(() => {
    setDeviceId(null);
    setField(null);
  }, [projectId]);

  const devices = useQuery({
    queryKey: datademoKeys.devices(projectId, keyword),
    queryFn: () => datademoApi.devices(projectId!, keyword || undefined),
    enabled: projectId !== null,
    placeholderData: keepPreviousData,
  });
  const [chosen, setChosen] = useState<NonNullable<typeof devices.data>[number] | null>(null);
  const device = chosen && chosen.id === deviceId ? chosen : null;
  const fieldDef = device?.fields.find((f) => f.code === field);

  const range: [number, number] | null = preset === 'custom'
    ? (custom ? [custom[0].valueOf(), custom[1].valueOf()] : null)
    : rangeOf(preset, now);
  const tooLong = range !== null && range[1] - range[0] > DATADEMO_MAX_RANGE_MS;
  const ready = device && fieldDef && range && !tooLong;

  const series = useQuery({
    queryKey: datademoKeys.series(deviceId ?? 0, field ?? '', range?.[0] ?? 0, range?.[1] ?? 0),
    queryFn: () => datademoApi.series({ deviceId: deviceId!, field: field!, from: range![0], to: range![1] }),
    enabled: !!ready,
  });

  const deviceOptions = useMemo(() => {
    const list = devices.data ?? [];
    const all = device && !list.some((d) => d.id === device.id) ? [device, ...list] : list;
    return all.map((d) => ({ value: d.id, label: `${d.deviceName}（${d.deviceCode}）`, title: `${d.typeName} · ${d.location || '项目'}` }));
  }, [devices.data, device]);

  if (projectId === null) return <NoProject title="数据示例" />;
  return (
    <PageContainer title="数据示例">
      <Card size="small" variant="borderless">
        <Space wrap size={[16, 12]}>
          <Space>
            <span>设备</span>
            <Select
              showSearch={{ filterOption: false, onSearch: setKeyword }}
              allowClear
              placeholder="输入编号或名称搜索"
              style={{ width: 320 }}
              value={deviceId ?? undefined}
              loading={devices.isFetching}
              notFoundContent={devices.isFetching ? <Spin size="small" /> : '没有匹配的设备'}
              options={deviceOptions}
              optionRender={(o) => <div>{o.label}<div style={{ color: '#999', fontSize: 12 }}>{o.data.title}</div></div>}
              onChange={(id?: number) => {
                const d = (devices.data ?? []).find((x) => x.id === id) ?? null;
                setDeviceId(id ?? null);
                setChosen(d);
                setField(d?.fields.find((f) => f.code === field)?.code ?? d?.fields[0]?.code ?? null);
              }}
              data-testid="datademo-device"
            />
          </Space>
          <Space>
            <span>字段</span>
            <Select
              placeholder="请选择字段"
              style={{ width: 200 }}
              value={field ?? undefined}
              disabled={!device}
              options={(device?.fields ?? []).map((f) => ({ value: f.code, label: f.unit ? `${f.label}（${f.unit}）` : f.label }))}
              onChange={setField}
              data-testid="datademo-field"
            />
          </Space>
          <Segmented value={preset} options={PRESETS} onChange={(v) => {
            setPreset(v as Preset);
            setNow(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
          }} />
          {preset === 'custom' && (
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" value={custom} onChange={(v) => setCustom(v && v[0] && v[1] ? [v[0], v[1]] : null)}
              disabledDate={(d) => d.isAfter(dayjs().endOf('day'))} />
          )}
        </Space>
      </Card>
      {tooLong && (
        <Alert type="warning" showIcon title="最多查询两年，请缩短时间范围" />
      )}
      {!ready ? (
        !tooLong && <Card size="small" variant="borderless"><Empty description={!device ? '请选择设备' : !fieldDef ? '请选择字段' : '请选择时间范围'} /></Card>
      ) : (
        <>
          <Card size="small" variant="borderless"
            title={<span>{device.deviceName} · {fieldDef.label}{fieldDef.unit ? `（${fieldDef.unit}）` : ''} · {RESOLUTION[datademoResolution(range[0], range[1])]}</span>}
            extra={range && <Typography.Text type="secondary">{formatDateTime(range[0])} 至 {formatDateTime(range[1])}</Typography.Text>}>
            {series.isLoading ? <div style={{ height: 360, display: 'grid', placeItems: 'center' }}><Spin /></div>
              : series.isError ? <Empty description="读数加载失败" />
              : series.data && series.data.points.length === 0 ? <Empty description="该时间范围内没有读数" />
              : series.data && <ReadingsChart data={series.data} />}
          </Card>
          <DataTable<{ ts: number; value: number }>
            key={`${deviceId}-${field}-${range![0]}-${range![1]}`}
            title={`${RESOLUTION[datademoResolution(range![0], range![1])]}（最新在前）`}
            queryKey={datademoKeys.readings}
            fetchPage={datademoApi.readings}
            params={{ deviceId: deviceId!, field: field!, from: range![0], to: range![1] }}
            rowKey="ts"
            columns={[
              { title: '时间', dataIndex: 'ts', width: 200, render: (v: number) => formatDateTime(v) },
              { title: fieldDef.unit ? `${fieldDef.label}（${fieldDef.unit}）` : fieldDef.label, dataIndex: 'value', width: 160 },
            ]}
          />
        </>
      )}
    </PageContainer>
  );
}

import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Input, Segmented, Select, Space, Statistic, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { ChargeSummaryRow } from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable, QueryButtons } from '../../../components/data-table';
import { dayjs, formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { useProject } from '../../../stores/project';
import { formatFen } from '../../accounts';
import { billingKeys, engineApi, type MoneyPage } from '../api';
import { AmountBarChart } from './engine-charts';
import { formatQuantity, LinesTable, TotalOf } from './engine-lines';

type Preset = 'today' | 'week' | 'month' | 'custom';
const PRESETS: { value: Preset; label: string }[] = [
  { value: 'today', label: '今日' }, { value: 'week', label: '本周' }, { value: 'month', label: '本月' }, { value: 'custom', label: '自定义' },
];
type Range = [dayjs.Dayjs, dayjs.Dayjs];
function presetRange(p: Exclude<Preset, 'custom'>): Range {
  const unit = p === 'today' ? 'day' : p;
  return [dayjs().startOf(unit), dayjs().endOf(unit)];
}

interface Applied { startTime: number; endTime: number; deviceType?: string; keyword?: string }
const appliedOf = (range: Range, deviceType?: string, keyword?: string): Applied => ({
  startTime: range[0].startOf('day').valueOf(), endTime: range[1].endOf('day').valueOf(), deviceType: deviceType || undefined, keyword: keyword?.trim() || undefined,
});

/**
 * 设备计费汇总: each device's use and money over a range (calcdevicechargedatasummary), the range's total, the ten
 * devices that cost most, and a device's lines with the readings they came from (calcdevicechargedatadetail).
 */
export function ChargeSummaryTab({ projectId }: { projectId: number }) {
  const deviceTypes = useProject((s) => s.deviceTypes);
  const [preset, setPreset] = useState<Preset>('month');
  const [range, setRange] = useState<Range>(() => presetRange('month'));
  const [deviceType, setDeviceType] = useState<string>();
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState<Applied>(() => appliedOf(presetRange('month')));
  const [device, setDevice] = useState<ChargeSummaryRow | null>(null);
  const [exporting, setExporting] = useState(false);

  const choose = (p: Preset) => {
    setPreset(p);
    if (p !== 'custom') {
      const r = presetRange(p);
      setRange(r);
      setApplied(appliedOf(r, deviceType, keyword));
    }
  };
  const reset = () => {
    const r = presetRange('month');
    setPreset('month');
    setRange(r);
    setDeviceType(undefined);
    setKeyword('');
    setApplied(appliedOf(r));
  };
  const body = { projectId, ...applied };
  // the summary answers devices by amount, largest first: its first ten rows are the chart
  const top = useQuery({
    queryKey: [...billingKeys.chargeData(projectId), 'top', body],
    queryFn: () => engineApi.chargeSummary({ ...body, pageNo: 1, pageSize: 10 }),
  });
  const topItems = (top.data?.rows ?? []).filter((r) => r.amountFen > 0).map((r) => ({ name: r.deviceName || r.deviceCode, fen: r.amountFen, note: formatQuantity(r.quantity, r.unit) }));
  const rangeText = `${formatDateTime(applied.startTime, 'YYYY-MM-DD')} 至 ${formatDateTime(applied.endTime, 'YYYY-MM-DD')}`;

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small" variant="borderless">
        <Form layout="inline" style={{ rowGap: 12 }} onFinish={() => setApplied(appliedOf(range, deviceType, keyword))}>
          <Form.Item label="时间">
            <Space wrap>
              <Segmented<Preset> options={PRESETS} value={preset} onChange={choose} aria-label="时间范围" />
              <DatePicker.RangePicker value={range} allowClear={false} disabled={preset !== 'custom'} style={{ width: 260 }}
                onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
            </Space>
          </Form.Item>
          <Form.Item label="设备类型">
            <Select allowClear placeholder="全部" value={deviceType} onChange={setDeviceType} style={{ width: 180 }}
              options={deviceTypes.map((t) => ({ value: t.code, label: t.name }))} />
          </Form.Item>
          <Form.Item label="关键字">
            <Input allowClear placeholder="设备编号、名称或户名" value={keyword} onChange={(e) => setKeyword(e.target.value)} maxLength={40} style={{ width: 200 }} />
          </Form.Item>
          <QueryButtons onReset={reset} />
        </Form>
      </Card>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(220px, 1fr) 3fr', gap: 12 }}>
        <Card size="small" title="合计" loading={top.isLoading}>
          <Space orientation="vertical" size={16}>
            <Statistic title={rangeText} value={top.data ? formatFen(top.data.totalFen) : '—'} suffix="元" data-testid="summary-total" />
            <Statistic title="计费设备" value={top.data?.total ?? 0} suffix="台" />
          </Space>
        </Card>
        <Card size="small" title="金额前十的设备" loading={top.isLoading}>
          {topItems.length ? <AmountBarChart items={topItems} testId="charge-top10-chart" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该时间范围内没有计费金额" />}
        </Card>
      </div>
      <DataTable<ChargeSummaryRow, MoneyPage<ChargeSummaryRow>>
        queryKey={[...billingKeys.chargeData(projectId), 'summary']}
        fetchPage={(p) => engineApi.chargeSummary({ ...body, pageNo: p.pageNo, pageSize: p.pageSize })}
        params={{ ...applied }}
        rowKey="deviceId"
        onRow={(r) => ({ onClick: () => setDevice(r), style: { cursor: 'pointer' } })}
        summary={(d) => <TotalOf data={d} />}
        toolbar={(
          <Can code="equipmentBilling_n:export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={async () => {
              setExporting(true);
              try {
                await engineApi.exportLines({ projectId, startTime: applied.startTime, endTime: applied.endTime });
              } catch {
                // the HTTP client showed the reason
              } finally {
                setExporting(false);
              }
            }}>导出</Button>
          </Can>
        )}
        columns={[
          { title: '设备', key: 'device', width: 200, render: (_, r) => <span>{r.deviceName}<br /><Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.deviceCode}</Typography.Text></span> },
          { title: '类型', dataIndex: 'deviceType', width: 150, render: (v: string) => deviceTypes.find((t) => t.code === v)?.name ?? v },
          { title: '账户', dataIndex: 'accountName', width: 140, render: (v: string | null) => v ?? <Typography.Text type="secondary">未绑定</Typography.Text> },
          { title: '用量', key: 'quantity', width: 140, align: 'right', render: (_, r) => formatQuantity(r.quantity, r.unit) },
          { title: '金额（元）', dataIndex: 'amountFen', width: 120, align: 'right', render: (v: number) => formatFen(v) },
          { title: '明细数', dataIndex: 'lines', width: 90, align: 'right' },
          { title: '操作', key: 'op', width: 80, fixed: 'right', render: (_, r) => <Button type="link" size="small" onClick={(e) => { e.stopPropagation(); setDevice(r); }}>明细</Button> },
        ]}
      />
      <AppDrawer open={!!device} size={1200} title={device ? `计费明细：${device.deviceName}（${rangeText}）` : ''} onClose={() => setDevice(null)} destroyOnHidden>
        {device && (
          <LinesTable
            queryKey={[...billingKeys.chargeData(projectId), 'detail', device.deviceId]}
            params={{ startTime: applied.startTime, endTime: applied.endTime, deviceId: device.deviceId }}
            fetchPage={(p) => engineApi.chargeDetail({ projectId, startTime: applied.startTime, endTime: applied.endTime, deviceId: device.deviceId, pageNo: p.pageNo, pageSize: p.pageSize })}
            columns={['account', 'method', 'readings', 'quantity', 'unitPrice', 'amount', 'period', 'posted']}
          />
        )}
      </AppDrawer>
    </Space>
  );
}

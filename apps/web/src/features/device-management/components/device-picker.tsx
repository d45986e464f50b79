import { useState, type ReactNode } from 'react';
import { App, Badge, Button, Input, Select, Space, Typography } from 'antd';
import type { DeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys, useDeviceTypes } from '../../devices';
import { BUILDINGS_AND_FLOORS, buildingFloorOptions, useAreaTree } from '../../projects';

/** Most devices one batch may take (the server's limit for batchpara and address requests). */
export const PICK_LIMIT = 1000;

export interface PickerFilters {
  deviceType?: string;
  areaId?: number;
  online?: string;
  keyword?: string;
}

/**
 * Devices of the project to act on: filter by type, building/floor, online and keyword; pick rows across pages, or
 * every device the filter matches (up to PICK_LIMIT). The selection is kept with its rows so callers can show them.
 */
export function DevicePicker(props: {
  projectId: number;
  /** a fixed type (the batch field's type); otherwise a type filter is offered */
  deviceType?: string;
  selected: DeviceRow[];
  onChange(rows: DeviceRow[]): void;
  extraColumns?: { title: string; key: string; width?: number; render: (d: DeviceRow) => ReactNode }[];
  queryKey: string;
}) {
  const { projectId, selected, onChange } = props;
  const { message } = App.useApp();
  const [filters, setFilters] = useState<PickerFilters>({});
  const [keyword, setKeyword] = useState('');
  const [picking, setPicking] = useState(false);
  const tree = useAreaTree(projectId, BUILDINGS_AND_FLOORS);
  const types = useDeviceTypes(projectId, { enabled: !props.deviceType });
  const params = { projectId, ...filters, deviceType: props.deviceType ?? filters.deviceType };
  const set = (patch: PickerFilters) => setFilters((f) => ({ ...f, ...patch }));

  const pickAll = async () => {
    setPicking(true);
    try {
      const rows: DeviceRow[] = [];
      for (let pageNo = 1; rows.length < PICK_LIMIT; pageNo++) {
        const page = await deviceApi.list({ ...params, pageNo, pageSize: 200 });
        rows.push(...page.rows);
        if (rows.length >= page.total || !page.rows.length) {
          if (page.total > PICK_LIMIT) message.warning(`筛选结果共 ${page.total} 台，一次最多选择 ${PICK_LIMIT} 台`);
          break;
        }
      }
      const byId = new Map(selected.map((d) => [d.id, d]));
      for (const d of rows.slice(0, PICK_LIMIT)) byId.set(d.id, d);
      onChange([...byId.values()].slice(0, PICK_LIMIT));
    } catch {
      // the HTTP client showed the reason
    } finally {
      setPicking(false);
    }
  };

  return (
    <div>
      <Space wrap style={{ marginBottom: 8 }}>
        <Select allowClear placeholder="楼栋 / 楼层" style={{ width: 200 }} options={buildingFloorOptions(tree.data)} loading={tree.isLoading}
          onChange={(v?: number) => set({ areaId: v })} data-testid="picker-area" />
        {!props.deviceType && (
          <Select allowClear placeholder="设备类型" style={{ width: 180 }} loading={types.isLoading}
            options={(types.data ?? []).filter((t) => t.total > 0).map((t) => ({ value: t.code, label: t.name }))} onChange={(v?: string) => set({ deviceType: v })} />
        )}
        <Select allowClear placeholder="在线状态" style={{ width: 120 }} options={[{ value: '1', label: '在线' }, { value: '0', label: '离线' }]}
          onChange={(v?: string) => set({ online: v })} data-testid="picker-online" />
        <Input.Search allowClear placeholder="设备编号或名称" style={{ width: 220 }} value={keyword} onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => set({ keyword: v.trim() || undefined })} />
      </Space>
      <DataTable<DeviceRow>
        queryKey={deviceKeys.list(`picker-${props.queryKey}`)}
        fetchPage={deviceApi.list}
        params={params}
        rowKey="id"
        defaultPageSize={10}
        title={<Typography.Text>已选 <b data-testid="picked-count">{selected.length}</b> 台{selected.length >= PICK_LIMIT ? `（上限 ${PICK_LIMIT}）` : ''}</Typography.Text>}
        toolbar={(
          <Space>
            <Button loading={picking} onClick={pickAll}>选择全部筛选结果</Button>
            <Button disabled={!selected.length} onClick={() => onChange([])}>清空选择</Button>
          </Space>
        )}
        rowSelection={{
          preserveSelectedRowKeys: true,
          selectedRowKeys: selected.map((d) => d.id),
          onChange: (_keys, rows) => {
            // rows of other pages come back undefined: keep them from the previous selection
            const keep = new Map(selected.map((d) => [d.id, d]));
            const next = _keys.map((k) => rows.find((r) => r?.id === k) ?? keep.get(k as number)).filter((d): d is DeviceRow => !!d);
            onChange(next.slice(0, PICK_LIMIT));
          },
        }}
        columns={[
          { title: '设备编号', dataIndex: 'deviceCode', width: 160 },
          { title: '设备名称', dataIndex: 'deviceName', width: 180, ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 140 },
          { title: '位置', dataIndex: 'areaPath', width: 180, render: (v: string) => v || '—' },
          { title: '状态', key: 'online', width: 80, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
          { title: '最后上报', dataIndex: 'lastReportAt', width: 165, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
          ...(props.extraColumns ?? []).map((c) => ({ title: c.title, key: c.key, width: c.width, render: (_: unknown, d: DeviceRow) => c.render(d) })),
        ]}
        scrollX={900}
      />
    </div>
  );
}

import { useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { deviceApi, deviceKeys } from '../../devices';
import { dmApi, dmKeys } from '../../device-management';
import { AreaTreeSelect } from '../../projects';

type Ids = number[];
/** A form control: Form.Item passes value, onChange and the id its label points at. */
interface IdsControl { id?: string; value?: Ids; onChange?: (v: Ids) => void; projectId: number; deviceType?: string; placeholder?: string }

/**
 * Devices of the project by code or name (searched on the server), optionally of one type; picked devices keep their
 * labels while the search changes.
 */
export function DeviceSelect({ id, value = [], onChange, projectId, deviceType, placeholder = '输入设备编号或名称搜索' }: IdsControl) {
  const [keyword, setKeyword] = useState('');
  const [known, setKnown] = useState<Map<number, string>>(new Map());
  const q = useQuery({
    queryKey: [...deviceKeys.list('automation-targets'), projectId, deviceType, keyword],
    queryFn: () => deviceApi.list({ projectId, deviceType, keyword: keyword || undefined, pageNo: 1, pageSize: 50 }),
    placeholderData: keepPreviousData,
  });
  const rows = q.data?.rows ?? [];
  const labelOf = (id: number) => known.get(id) ?? `设备 #${id}`;
  const options: SelectProps['options'] = [
    ...rows.map((d) => ({ value: d.id, label: `${d.deviceName}（${d.deviceCode}）${d.areaPath ? ` · ${d.areaPath}` : ''}` })),
    ...value.filter((id) => !rows.some((d) => d.id === id)).map((id) => ({ value: id, label: labelOf(id) })),
  ];
  return (
    <Select id={id} mode="multiple" allowClear showSearch={{ filterOption: false, onSearch: (s) => setKeyword(s.trim()) }} placeholder={placeholder}
      loading={q.isFetching} value={value} options={options} data-testid="target-devices" maxTagCount={8}
      notFoundContent={q.isFetching ? '加载中…' : '没有匹配的设备'}
      onChange={(ids: Ids) => {
        const next = new Map(known);
        for (const d of rows) if (ids.includes(d.id)) next.set(d.id, `${d.deviceName}（${d.deviceCode}）`);
        setKnown(next);
        onChange?.(ids);
      }} />
  );
}

/** Device groups of the project (设备分组). */
export function GroupSelect({ id, value = [], onChange, projectId }: IdsControl) {
  const q = useQuery({ queryKey: dmKeys.groupList(projectId), queryFn: () => dmApi.groups(projectId) });
  return (
    <Select id={id} mode="multiple" allowClear placeholder={q.data?.length === 0 ? '本项目还没有分组' : '选择分组'} loading={q.isLoading} value={value}
      onChange={(ids: Ids) => onChange?.(ids)} data-testid="target-groups" optionFilterProp="label"
      options={(q.data ?? []).map((g) => ({ value: g.id, label: `${g.name}（${g.deviceCount} 台）` }))} />
  );
}

const BELOW_PROJECT = ['building', 'floor', 'room'] as const;

/** Buildings, floors and rooms of the project (a building covers every device under it). */
export function AreaSelect({ id, value = [], onChange, projectId, single }: IdsControl & { single?: boolean }) {
  return single
    ? <AreaTreeSelect id={id} projectId={projectId} levels={BELOW_PROJECT} value={value[0]} onChange={(v) => onChange?.(v === undefined ? [] : [v])} placeholder="选择房间" data-testid="target-areas" />
    : <AreaTreeSelect id={id} multiple projectId={projectId} levels={BELOW_PROJECT} value={value} onChange={(v) => onChange?.(v)} placeholder="选择楼栋 / 楼层 / 房间" data-testid="target-areas" />;
}

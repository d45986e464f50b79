import { useState } from 'react';
import { Select, TreeSelect, type SelectProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AreaTreeNode } from '@kelvin/contracts/area';
import { deviceApi, deviceKeys } from '../../devices';
import { dmApi, dmKeys } from '../../device-management';
import { useAreaTree } from '../../projects';

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

function toTree(nodes: AreaTreeNode[]): { value: number; title: string; children: ReturnType<typeof toTree> }[] {
  return nodes.map((n) => ({ value: n.id, title: n.label, children: toTree(n.children) }));
}

/** Buildings, floors and rooms of the project (a building covers every device under it). */
export function AreaSelect({ id, value = [], onChange, projectId, single }: IdsControl & { single?: boolean }) {
  const tree = useAreaTree(projectId);
  return (
    <TreeSelect id={id} multiple={!single} allowClear treeDefaultExpandAll={false} placeholder={single ? '选择房间' : '选择楼栋 / 楼层 / 房间'} loading={tree.isLoading}
      value={single ? value[0] : value} onChange={(v: Ids | number | undefined) => onChange?.(Array.isArray(v) ? v : v === undefined || v === null ? [] : [v])}
      data-testid="target-areas" showSearch treeNodeFilterProp="title"
      treeData={toTree(tree.data?.[0]?.children ?? [])} />
  );
}

import { useDeferredValue, useMemo, useState } from 'react';
import { TreeSelect } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AreaLevel, AreaTreeNode } from '@kelvin/contracts';
import { BUILDINGS_AND_FLOORS, areaApi, areaKeys } from '../api';
import { hasMoreAreas, useLazyAreaTree } from '../lazy-tree';

/** Matches one search shows; more words narrow it. */
const SEARCH_LIMIT = 50;
/** the hint row under a cut search list (not an area) */
const MORE_HINT = -2;

interface Option { value: number; title: string; path: string; selectable: boolean; disabled?: boolean; isLeaf: boolean; children?: Option[] }
type Labeled = { value: number; label?: unknown };

interface Common {
  id?: string;
  projectId: number;
  /** the levels that can be picked; the others only open */
  levels: readonly AreaLevel[];
  /** an area that cannot be picked (where the thing already is) */
  exclude?: number | null;
  placeholder?: string;
  disabled?: boolean;
  listHeight?: number;
  maxTagCount?: number;
  'data-testid'?: string;
}
type Props = Common & (
  | { multiple: true; value?: number[]; onChange?: (v: number[]) => void }
  | { multiple?: false; value?: number | null; onChange?: (v: number | undefined) => void }
);

/** Paths of the loaded nodes below the project (「1号楼 / 3层 / 304室」; the project itself by its name). */
function pathsOf(nodes: readonly AreaTreeNode[], above: string, out: Map<number, string>) {
  for (const n of nodes) {
    const path = above ? `${above} / ${n.label}` : n.label;
    out.set(n.id, path);
    pathsOf(n.children, path, out);
  }
  return out;
}

/**
 * A project's buildings → floors → rooms to pick from, for projects of any size: buildings and floors load first, a
 * floor's rooms when it is opened, and typing searches the whole project on the server (every word must appear in the
 * path: 「3号楼 304」). What is picked shows its path, asked by id when it is not loaded (a form opened on saved values).
 */
export function AreaTreeSelect(props: Props) {
  const { projectId, levels, exclude } = props;
  const tree = useLazyAreaTree(projectId, BUILDINGS_AND_FLOORS);
  const [search, setSearch] = useState('');
  // the project opens on its buildings where it is a root of the list itself
  const [expanded, setExpanded] = useState<readonly number[]>([projectId]);
  const keyword = useDeferredValue(search.trim());
  const found = useQuery({
    queryKey: areaKeys.search(projectId, keyword, levels),
    queryFn: () => areaApi.search({ rootId: projectId, keyword, levels, limit: SEARCH_LIMIT }),
    enabled: keyword !== '',
    placeholderData: keepPreviousData,
  });

  const project = tree.data[0];
  const paths = useMemo(() => {
    const out = new Map<number, string>();
    if (project) out.set(project.id, project.label);
    return pathsOf(project?.children ?? [], '', out);
  }, [project]);
  const ids = props.value == null ? [] : Array.isArray(props.value) ? props.value : [props.value];
  // labels of picked areas taken from search results, which change with the next search
  const [picked, setPicked] = useState<ReadonlyMap<number, string>>(new Map());
  const missing = ids.filter((id) => !paths.has(id) && !picked.has(id));
  const named = useQuery({
    queryKey: areaKeys.search(projectId, `#${missing.join(',')}`, undefined),
    queryFn: () => areaApi.search({ rootId: projectId, ids: missing }),
    enabled: missing.length > 0 && !tree.isLoading,
  });
  const labelOf = (id: number) => paths.get(id) ?? picked.get(id) ?? named.data?.rows.find((r) => r.id === id)?.path ?? (named.isFetching ? '…' : `区域 #${id}`);

  const treeData = useMemo((): Option[] => {
    const canPick = (level: AreaLevel, id: number) => levels.includes(level) && id !== exclude;
    if (keyword !== '') {
      const page = found.data ?? { total: 0, rows: [] };
      const rows: Option[] = page.rows.map((r) => ({ value: r.id, title: r.path, path: r.path, selectable: canPick(r.level, r.id), isLeaf: true }));
      if (page.total > page.rows.length) {
        rows.push({ value: MORE_HINT, title: `另有 ${page.total - page.rows.length} 个未列出，请输入更多字缩小范围`, path: '', selectable: false, disabled: true, isLeaf: true });
      }
      return rows;
    }
    const conv = (ns: readonly AreaTreeNode[]): Option[] => ns.map((n) => ({
      value: n.id, title: n.label, path: paths.get(n.id) ?? n.label, selectable: canPick(n.level, n.id),
      isLeaf: !n.children.length && !hasMoreAreas(n), children: conv(n.children),
    }));
    if (!project) return [];
    return levels.includes('project') ? conv([project]) : conv(project.children);
  }, [keyword, found.data, project, paths, levels, exclude]);

  const value = ids.map((id) => ({ value: id, label: labelOf(id) }));
  const change = (v: Labeled | Labeled[] | null | undefined) => {
    const list = v == null ? [] : Array.isArray(v) ? v : [v];
    const next = new Map(picked);
    for (const { value: id, label } of list) if (typeof label === 'string') next.set(id, label);
    setPicked(next);
    const chosen = list.map((x) => x.value);
    if (props.multiple) props.onChange?.(chosen);
    else props.onChange?.(chosen[0]);
  };
  return (
    <TreeSelect<Labeled | Labeled[]>
      id={props.id}
      data-testid={props['data-testid']}
      multiple={props.multiple}
      labelInValue
      value={props.multiple ? value : value[0]}
      onChange={change}
      treeData={treeData as never}
      treeNodeLabelProp="path"
      loadData={(n) => tree.open(Number(n.value))}
      treeExpandedKeys={expanded as number[]}
      onTreeExpand={(keys) => setExpanded(keys.map(Number))}
      showSearch={{ searchValue: search, onSearch: setSearch, filterTreeNode: false }}
      notFoundContent={found.isFetching || tree.isLoading ? '查找中…' : keyword ? '没有匹配的区域' : '项目下还没有楼栋'}
      loading={tree.isLoading || found.isFetching}
      placeholder={props.placeholder}
      disabled={props.disabled}
      allowClear
      maxTagCount={props.maxTagCount}
      listHeight={props.listHeight ?? 320}
    />
  );
}

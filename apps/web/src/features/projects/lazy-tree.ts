import { useCallback, useMemo, useState } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { AreaTreeNode } from '@kelvin/contracts';
import { areaApi, areaKeys, useAreaTree } from './api';

/** Every node of a tree by id. */
export function indexAreaTree(nodes: readonly AreaTreeNode[], out = new Map<number, AreaTreeNode>()) {
  for (const n of nodes) { out.set(n.id, n); indexAreaTree(n.children, out); }
  return out;
}

/** The first levels as loaded, with the children of each opened node put in place (they arrive level by level). */
function merge(nodes: AreaTreeNode[], opened: ReadonlyMap<number, AreaTreeNode[]>): AreaTreeNode[] {
  return nodes.map((n) => {
    const loaded = n.childCount ? opened.get(n.id) : undefined;
    if (loaded) return { ...n, childCount: undefined, children: merge(loaded, opened) };
    return n.children.length ? { ...n, children: merge(n.children, opened) } : n;
  });
}

/** The opened nodes' answers (`tree/{id}?depth=1`) as each node's children (module level: a stable combine is memoized). */
function childrenById(results: { data?: AreaTreeNode[] }[]): ReadonlyMap<number, AreaTreeNode[]> {
  const out = new Map<number, AreaTreeNode[]>();
  for (const r of results) if (r.data?.[0]) out.set(r.data[0].id, r.data[0].children);
  return out;
}

/** A node whose children were left out of what is loaded (it opens on demand). */
export const hasMoreAreas = (n: AreaTreeNode) => !!n.childCount;

/**
 * An area tree loaded level by level: `depth` levels below `rootId` at first (-1: the visible roots), then the children
 * of each node `open` is called for, each as its own query (`tree/{id}?depth=1`), so an area change that invalidates
 * `areaKeys.all` refreshes them with the rest. A tenant of 58,000 areas is a 5 MB tree; a 10,000-room project 1 MB.
 */
export function useLazyAreaTree(rootId: number | null, depth: number) {
  const qc = useQueryClient();
  const first = useAreaTree(rootId, depth);
  const [openedIds, setOpenedIds] = useState<number[]>([]);
  const opened = useQueries({ queries: openedIds.map((id) => ({ queryKey: areaKeys.tree(id, 1), queryFn: () => areaApi.tree(id, 1) })), combine: childrenById });
  const data = useMemo(() => merge(first.data ?? [], opened), [first.data, opened]);
  const open = useCallback(async (id: number) => {
    setOpenedIds((ids) => (ids.includes(id) ? ids : [...ids, id]));
    await qc.fetchQuery({ queryKey: areaKeys.tree(id, 1), queryFn: () => areaApi.tree(id, 1) });
  }, [qc]);
  /** opened nodes that no longer exist (a deleted area and what was below it) are not asked for again */
  const forget = useCallback((ids: Iterable<number>) => {
    const gone = new Set(ids);
    setOpenedIds((cur) => cur.filter((x) => !gone.has(x)));
  }, []);
  return { data, first, isLoading: first.isLoading, open, forget };
}

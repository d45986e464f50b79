import { TreeSelect } from 'antd';
import type { AreaTreeNode } from '@kelvin/contracts';
import { useAreaTree } from '../../projects';

type Node = { value: number; title: string; path: string; selectable: boolean; children: Node[] };

/** Buildings → floors → rooms of a project; only rooms can be picked (several for a company renting a floor). */
export function RoomPicker({ id, projectId, value, onChange, disabled }: { id?: string; projectId: number; value?: number[]; onChange?: (v: number[]) => void; disabled?: boolean }) {
  const tree = useAreaTree(projectId);
  // a picked room shows its whole path (「1号楼/1层/101室」: every building has a 101室)
  const conv = (ns: AreaTreeNode[], above = ''): Node[] => ns.map((n) => {
    const path = n.level === 'project' ? '' : `${above}${above ? '/' : ''}${n.label}`;
    return { value: n.id, title: n.label, path, selectable: n.level === 'room', children: conv(n.children, path) };
  });
  return (
    <TreeSelect<number[]>
      id={id}
      value={value}
      onChange={(v) => onChange?.(v)}
      treeData={conv(tree.data ?? []) as never}
      multiple
      treeDefaultExpandAll={false}
      showSearch
      treeNodeFilterProp="title"
      treeNodeLabelProp="path"
      placeholder="选择房间（可多选）"
      loading={tree.isLoading}
      disabled={disabled}
      allowClear
      maxTagCount={6}
      data-testid="room-picker"
    />
  );
}

import { TreeSelect } from 'antd';
import type { AreaTreeNode } from '@kelvin/contracts';
import { useAreaTree } from '../../projects';

type Node = { value: number; title: string; selectable: boolean; children: Node[] };

/** Buildings → floors → rooms of a project; only rooms can be picked (several for a company renting a floor). */
export function RoomPicker({ id, projectId, value, onChange, disabled }: { id?: string; projectId: number; value?: number[]; onChange?: (v: number[]) => void; disabled?: boolean }) {
  const tree = useAreaTree(projectId);
  const conv = (ns: AreaTreeNode[]): Node[] => ns.map((n) => ({ value: n.id, title: n.label, selectable: n.level === 'room', children: conv(n.children) }));
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
      placeholder="选择房间（可多选）"
      loading={tree.isLoading}
      disabled={disabled}
      allowClear
      maxTagCount={6}
      data-testid="room-picker"
    />
  );
}

import { useEffect, useMemo, useState, type Key } from 'react';
import { Alert, App, Button, Checkbox, Empty, Space, Spin, Tree, type TreeDataNode } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthorityNode } from '@kelvin/contracts/admin';
import { PreventClickButton } from '../../../lib/ui';
import { adminKeys, groupApi } from '../api';

const KIND_LABELS: Record<string, string> = { view: '查看', btn_add: '新增', btn_edit: '编辑', btn_del: '删除', export: '导出', control: '控制' };
const elementLabel = (code: string, name: string) => KIND_LABELS[code.slice(code.indexOf(':') + 1)] ?? name;

interface Index {
  parent: Map<string, string | null>;
  leaves: Set<string>;
  elementsOf: Map<string, string[]>;
  menuOfElement: Map<string, string>;
  dirs: string[];
}

function indexTree(nodes: AuthorityNode[]): Index {
  const idx: Index = { parent: new Map(), leaves: new Set(), elementsOf: new Map(), menuOfElement: new Map(), dirs: [] };
  const walk = (list: AuthorityNode[], parent: string | null) => {
    for (const n of list) {
      idx.parent.set(n.code, parent);
      if (n.children.length) idx.dirs.push(n.code);
      else idx.leaves.add(n.code);
      idx.elementsOf.set(n.code, n.elements.map((e) => e.code));
      for (const e of n.elements) idx.menuOfElement.set(e.code, n.code);
      walk(n.children, n.code);
    }
  };
  walk(nodes, null);
  return idx;
}

/**
 * The role authority editor of groupManager: the menu tree with checkboxes (a directory is granted with any of its
 * menus) and, on each menu, its element (button) checkboxes. Codes the editor's user does not hold are greyed out:
 * the server refuses to grant them anyway.
 */
export function AuthorityEditor({ roleId, tenantId, canEdit }: { roleId: number; tenantId: number | undefined; canEdit: boolean }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const tree = useQuery({ queryKey: adminKeys.authorityTree(tenantId), queryFn: () => groupApi.authorityTree(tenantId) });
  const current = useQuery({ queryKey: adminKeys.authority(roleId), queryFn: () => groupApi.authority(roleId) });
  const idx = useMemo(() => indexTree(tree.data ?? []), [tree.data]);
  const [menus, setMenus] = useState<Set<string>>(new Set());
  const [elements, setElements] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<Key[]>([]);

  useEffect(() => {
    if (!current.data || !tree.data) return;
    // only leaves are handed to the tree: it derives the state of directories from them
    setMenus(new Set(current.data.menus.filter((c) => idx.leaves.has(c))));
    setElements(new Set(current.data.elements));
  }, [current.data, tree.data, idx]);

  const save = useMutation({
    mutationFn: () => {
      const granted = new Set<string>();
      for (const m of menus) for (let c: string | null | undefined = m; c; c = idx.parent.get(c)) granted.add(c);
      const els = [...elements].filter((e) => granted.has(idx.menuOfElement.get(e) ?? ''));
      return groupApi.setAuthority(roleId, { menus: [...granted], elements: els });
    },
    onSuccess: (saved) => {
      message.success(`权限已保存：${saved.menus.length} 个菜单，${saved.elements.length} 个按钮；该角色的用户下次操作即生效`);
      qc.setQueryData(adminKeys.authority(roleId), saved);
    },
  });

  const toggleElement = (menu: string, codes: string[]) => {
    const mine = new Set(idx.elementsOf.get(menu) ?? []);
    setElements((prev) => new Set([...[...prev].filter((e) => !mine.has(e)), ...codes]));
    if (codes.length && !menus.has(menu)) setMenus((prev) => new Set([...prev, menu]));
  };

  const toData = (nodes: AuthorityNode[]): TreeDataNode[] => nodes.map((n) => ({
    key: n.code,
    disableCheckbox: !canEdit || !n.grantable,
    title: (
      <span data-testid={`authority-${n.code}`} style={{ display: 'inline-flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <span style={{ color: n.grantable ? undefined : '#bbb' }}>{n.title}</span>
        {n.elements.length > 0 && (
          <span onClick={(e) => e.stopPropagation()}>
            <Checkbox.Group
              value={(idx.elementsOf.get(n.code) ?? []).filter((c) => elements.has(c))}
              onChange={(v) => toggleElement(n.code, v as string[])}
              options={n.elements.map((e) => ({ value: e.code, label: elementLabel(e.code, e.name), disabled: !canEdit || !e.grantable }))}
            />
          </span>
        )}
      </span>
    ),
    children: n.children.length ? toData(n.children) : undefined,
  }));

  if (tree.isLoading || current.isLoading) return <Spin />;
  if (!tree.data?.length) return <Empty description="没有可授予的菜单" />;

  return (
    <div data-testid="authority-editor">
      <Space style={{ marginBottom: 8, justifyContent: 'space-between', width: '100%' }}>
        <Space>
          <Button size="small" onClick={() => setExpanded(idx.dirs)}>全部展开</Button>
          <Button size="small" onClick={() => setExpanded([])}>全部收起</Button>
          <span style={{ color: '#888' }}>已选 {menus.size} 个菜单、{elements.size} 个按钮</span>
        </Space>
        {canEdit && <PreventClickButton type="primary" loading={save.isPending} onClick={() => save.mutate()}>保存权限</PreventClickButton>}
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 8 }} title="勾选菜单即授予该菜单，菜单后的复选框是其按钮权限；灰色项是您自己没有的权限，不能授予。" />
      <Tree
        checkable
        selectable={false}
        blockNode
        treeData={toData(tree.data)}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys)}
        checkedKeys={[...menus]}
        onCheck={(checked) => {
          const keys = new Set((Array.isArray(checked) ? checked : checked.checked).map(String).filter((k) => idx.leaves.has(k)));
          // a menu that loses its check loses its buttons too
          setElements((prev) => new Set([...prev].filter((e) => keys.has(idx.menuOfElement.get(e) ?? ''))));
          setMenus(keys);
        }}
        style={{ maxHeight: 560, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}
      />
    </div>
  );
}

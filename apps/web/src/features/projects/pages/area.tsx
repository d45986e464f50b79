import { useMemo, useState } from 'react';
import { App, Button, Card, Col, Descriptions, Empty, Form, Input, InputNumber, Popconfirm, Row, Select, Space, Spin, Tag, Tree, TreeSelect } from 'antd';
import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AREA_LEVEL_LABELS, PROJECT_TYPES, areaCreateBody, areaPatchBody, type AreaLevel, type AreaTreeNode, type ImportResult,
} from '@kelvin/contracts';
import { PageContainer } from '../../../components/page';
import { FormModal } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { Can } from '../../../lib/ui';
import { useProject } from '../../../stores/project';
import { areaApi, areaKeys } from '../api';
import { hasMoreAreas, indexAreaTree, useLazyAreaTree } from '../lazy-tree';
import { ImportDialog } from '../../../components/import-dialog';

const CHILD: Record<AreaLevel, AreaLevel | null> = { region: 'project', project: 'building', building: 'floor', floor: 'room', room: null };
const PARENT: Record<AreaLevel, AreaLevel | null> = { region: null, project: 'region', building: 'project', floor: 'building', room: 'floor' };
const LEVEL_COLORS: Record<AreaLevel, string> = { region: 'purple', project: 'blue', building: 'cyan', floor: 'green', room: 'default' };
const c = areaCreateBody.shape;
const p = areaPatchBody.shape;

/** Only nodes of `level` are selectable (the move target must sit right above the moved area); the rest open on demand. */
function targets(nodes: AreaTreeNode[], level: AreaLevel): { value: number; title: string; disabled: boolean; isLeaf: boolean; children: unknown[] }[] {
  return nodes.map((n) => ({
    value: n.id, title: n.label, disabled: n.level !== level, isLeaf: n.level === level || (!n.children.length && !hasMoreAreas(n)),
    children: n.level === level ? [] : targets(n.children, level),
  }));
}

/** Levels loaded at first: regions → projects → buildings; floors and rooms load when their building is opened. */
const FIRST_LEVELS = 2;

/** area (楼宇与设备): the area tree — new (many siblings at once), edit, move, delete, Excel import and export. */
export default function AreaPage() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  // a platform of 58,000 areas is a 5 MB tree: it loads level by level, each opened node's children as their own query
  // (so an area change refreshes them with the rest)
  const { data: merged, first: tree, open, forget } = useLazyAreaTree(-1, FIRST_LEVELS);
  const nodes = useMemo(() => indexAreaTree(merged), [merged]);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = selectedId === null ? null : nodes.get(selectedId) ?? null;
  const detail = useQuery({ queryKey: areaKeys.detail(selectedId), queryFn: () => areaApi.get(selectedId!), enabled: selectedId !== null });
  const [dialog, setDialog] = useState<'add' | 'edit' | 'move' | 'import' | null>(null);
  const [form] = Form.useForm();
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: areaKeys.all });
    await useProject.getState().loadProjects();
  };
  const done = (msg: string) => async () => { message.success(msg); setDialog(null); await refresh(); };
  const addLevel: AreaLevel = selected ? CHILD[selected.level]! : 'region';
  const add = useMutation({ mutationFn: ({ qty, ...v }: Record<string, unknown>) => areaApi.create(Number(qty), { ...v, parentId: selected?.id ?? null, level: addLevel }), onSuccess: done('新建成功') });
  const edit = useMutation({ mutationFn: (v: Record<string, unknown>) => areaApi.update(selectedId!, v), onSuccess: done('修改成功') });
  const move = useMutation({ mutationFn: (v: { parentId: number }) => areaApi.move(selectedId!, v.parentId), onSuccess: done('移动成功') });
  const remove = useChange(async () => {
    await areaApi.remove(selectedId!);
    forget(indexAreaTree([nodes.get(selectedId!)!]).keys());
  }, { done: '删除成功', refresh, then: () => setSelectedId(null) });

  const treeData = useMemo(() => {
    const conv = (ns: AreaTreeNode[]): object[] => ns.map((n) => ({
      key: n.id, title: <span><Tag color={LEVEL_COLORS[n.level]} style={{ marginInlineEnd: 4 }}>{AREA_LEVEL_LABELS[n.level]}</Tag>{n.label}</span>,
      isLeaf: !n.children.length && !hasMoreAreas(n), children: conv(n.children),
    }));
    return conv(merged);
  }, [merged]);
  // a small tree opens its first levels; a large one shows its regions
  const [expandedKeys, setExpandedKeys] = useState<number[] | null>(null);
  const firstExpanded = useMemo(() => {
    const first = indexAreaTree(tree.data ?? []);
    return first.size < 300 ? [...first.values()].filter((n) => n.children.length).map((n) => n.id) : [];
  }, [tree.data]);
  const openDialog = (d: 'add' | 'edit' | 'move') => {
    form.resetFields();
    if (d === 'add') form.setFieldsValue({ qty: 1 });
    if (d === 'edit' && detail.data) form.setFieldsValue({ name: detail.data.name, floorArea: detail.data.floorArea });
    setDialog(d);
  };
  const d = detail.data;

  return (
    <PageContainer title="楼宇与设备" extra={(
      <Space>
        <Can code="area:btn_add"><Button icon={<UploadOutlined />} onClick={() => setDialog('import')}>导入项目楼宇</Button></Can>
        <Can code="area:btn_add"><Button icon={<PlusOutlined />} onClick={() => { setSelectedId(null); form.resetFields(); form.setFieldsValue({ qty: 1 }); setDialog('add'); }}>新增区域</Button></Can>
      </Space>
    )}>
      <Row gutter={12}>
        <Col xs={24} md={9}>
          <Card size="small" title="区域树" styles={{ body: { maxHeight: 640, overflow: 'auto' } }}>
            <Spin spinning={tree.isLoading}>
              {treeData.length ? (
                <Tree showLine blockNode treeData={treeData as never} selectedKeys={selectedId ? [selectedId] : []} onSelect={(k) => setSelectedId(k.length ? Number(k[0]) : null)}
                  expandedKeys={expandedKeys ?? firstExpanded} onExpand={(k) => setExpandedKeys(k.map(Number))} loadData={(n) => open(Number(n.key))} data-testid="area-tree" />
              )
                : <Empty description="还没有区域，请新增区域或导入" />}
            </Spin>
          </Card>
        </Col>
        <Col xs={24} md={15}>
          <Card size="small" title={selected ? `${AREA_LEVEL_LABELS[selected.level]}：${selected.label}` : '请在左侧选择区域'} extra={selected && (
            <Space wrap>
              {CHILD[selected.level] && <Can code="area:btn_add"><Button type="primary" size="small" onClick={() => openDialog('add')}>新增{AREA_LEVEL_LABELS[CHILD[selected.level]!]}</Button></Can>}
              <Can code="area:btn_edit"><Button size="small" onClick={() => openDialog('edit')}>编辑</Button></Can>
              {PARENT[selected.level] && <Can code="area:btn_edit"><Button size="small" onClick={() => openDialog('move')}>移动</Button></Can>}
              <Can code="area:export"><Button size="small" icon={<DownloadOutlined />} onClick={() => areaApi.exportArea(selected.id).catch(() => {})}>导出</Button></Can>
              <Can code="area:btn_del">
                <Popconfirm title={`确定删除「${selected.label}」？`} onConfirm={() => remove.mutate()}><Button size="small" danger>删除</Button></Popconfirm>
              </Can>
            </Space>
          )}>
            {!selected ? <Empty description="选择一个区域查看与维护" /> : (
              <Spin spinning={detail.isLoading}>
                <Descriptions size="small" column={2} items={[
                  { label: '名称', children: d?.name },
                  { label: '层级', children: AREA_LEVEL_LABELS[selected.level] },
                  { label: '下级数量', children: selected.childCount ?? selected.children.length },
                  ...(selected.level === 'room' ? [{ label: '面积', children: d?.floorArea ? `${d.floorArea} m²` : '未填写' }] : []),
                  ...(selected.level === 'project' ? [{ label: '项目类型', children: d?.projectType ?? '—' }, { label: '地址', children: d?.address ?? '—' }] : []),
                ]} />
              </Spin>
            )}
          </Card>
        </Col>
      </Row>

      <FormModal title={selected ? `在「${selected.label}」下新增${AREA_LEVEL_LABELS[addLevel]}` : '新增区域'} open={dialog === 'add'} onClose={() => setDialog(null)}
        form={form} name="areaForm" saving={add.isPending} onSave={(v) => add.mutate(v)}>
        <Form.Item name="name" label="名称" required rules={[zodRule(c.name)]} extra="一次新建多个时，名称末尾的数字依次递增（如 101 → 101、102 …），没有数字则追加序号">
          <Input maxLength={50} placeholder={addLevel === 'room' ? '例如 101' : `例如 ${addLevel === 'floor' ? '1层' : addLevel === 'building' ? '1号楼' : '名称'}`} />
        </Form.Item>
        <Form.Item name="qty" label="数量" required rules={[{ type: 'integer', min: 1, max: 500, message: '数量为 1～500' }]}><InputNumber min={1} max={500} precision={0} /></Form.Item>
        {addLevel === 'room' && <Form.Item name="floorArea" label="面积 (m²)" rules={[zodRule(c.floorArea)]}><InputNumber min={0.01} max={1000000} style={{ width: 200 }} /></Form.Item>}
        {addLevel === 'project' && (
          <Form.Item name="projectType" label="项目类型" required rules={[zodRule(c.projectType.unwrap())]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={PROJECT_TYPES.map((t) => ({ value: t.code, label: `${t.code} ${t.name}` }))} />
          </Form.Item>
        )}
      </FormModal>

      <FormModal title="编辑区域" open={dialog === 'edit'} onClose={() => setDialog(null)} form={form} name="areaForm" saving={edit.isPending} onSave={(v) => edit.mutate(v)}>
        <Form.Item name="name" label="名称" required rules={[zodRule(p.name.unwrap())]}><Input maxLength={50} /></Form.Item>
        {selected?.level === 'room' && <Form.Item name="floorArea" label="面积 (m²)" rules={[zodRule(c.floorArea)]}><InputNumber min={0.01} max={1000000} style={{ width: 200 }} /></Form.Item>}
      </FormModal>

      <FormModal title={`移动「${selected?.label ?? ''}」`} open={dialog === 'move'} onClose={() => setDialog(null)} form={form} name="areaForm" saving={move.isPending} onSave={(v) => move.mutate(v)} okText="移动">
        {selected && PARENT[selected.level] && (
          <Form.Item name="parentId" label={`新的上级${AREA_LEVEL_LABELS[PARENT[selected.level]!]}`} required rules={[{ required: true, message: '请选择新的上级' }]}>
            <TreeSelect treeData={targets(merged, PARENT[selected.level]!) as never} loadData={(n) => open(Number(n.value))} showSearch treeNodeFilterProp="title" placeholder="选择（展开上级可载入下级）" />
          </Form.Item>
        )}
      </FormModal>

      <ImportDialog<ImportResult> open={dialog === 'import'} title="导入项目楼宇" modelType="project" onClose={() => setDialog(null)}
        upload={(file) => areaApi.importTree(file)}
        describe={(r) => `导入成功：${r.rows} 行；新建 ${Object.entries(r.created).map(([k, n]) => `${AREA_LEVEL_LABELS[k as AreaLevel]} ${n}`).join('、') || '无'}；更新 ${r.updated}`}
        onDone={() => void refresh()} />
    </PageContainer>
  );
}

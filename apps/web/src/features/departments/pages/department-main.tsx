import { useMemo, useState, type ReactNode } from 'react';
import { App, Button, Card, Col, Empty, List, Popconfirm, Row, Segmented, Skeleton, Space, Statistic, Tag, Tree, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { ASSIGNMENT_KIND, BUDGET_STATE, DEPARTMENT_COUNTERS, type AssignmentDto, type BudgetState, type DepartmentCounter, type DepartmentDto } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { DeleteLink } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { useChange } from '../../../lib/mutations';
import { Can, useCan } from '../../../lib/ui';
import { departmentApi, departmentKeys } from '../api';
import { AssignDialog, DatesDialog, DepartmentDialog, MoveDialog, flatten } from '../components/dialogs';
import { fmt, pct } from '../components/format';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

interface TreeNode { key: number; title: ReactNode; children: TreeNode[] }

const BUDGET_COLOR: Record<BudgetState, string> = { ok: 'green', warning: 'orange', exceeded: 'red' };

/** 本月 by department (children included), as horizontal bars. */
function ByDepartmentChart({ rows, unit }: { rows: { name: string; value: number | null }[]; unit: string }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v ?? '—'} ${unit}` },
    grid: { left: 110, right: 32, top: 8, bottom: 24 },
    xAxis: { type: 'value', name: unit },
    yAxis: { type: 'category', inverse: true, data: rows.map((r) => r.name) },
    series: [{ type: 'bar', barMaxWidth: 18, data: rows.map((r) => r.value), label: { show: true, position: 'right' } }],
  }), [rows, unit]);
  return <div ref={ref} style={{ height: Math.max(160, rows.length * 34 + 40), width: '100%' }} data-testid="department-chart" data-points={rows.length} />;
}

/**
 * departmentMain (部门能耗总览): the project's departments as a tree (新增 / 编辑 / 删除), this month's energy with last
 * month and the year before, a chart by department, the budget warnings, and the meters and rooms of the selected
 * department with their history (分配 / 转移 / 修改日期 / 删除).
 */
export default function DepartmentMainPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const canEdit = useCan('departmentMain:btn_edit');
  const [counter, setCounter] = useState<DepartmentCounter>('f70');
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<DepartmentDto | 'new' | null>(null);
  const [assigning, setAssigning] = useState(false);
  const [moving, setMoving] = useState<AssignmentDto | null>(null);
  const [dating, setDating] = useState<AssignmentDto | null>(null);
  const tree = useQuery({ queryKey: departmentKeys.tree(projectId), queryFn: () => departmentApi.tree(projectId!), enabled: projectId !== null });
  const overview = useQuery({ queryKey: departmentKeys.overview(projectId, counter), queryFn: () => departmentApi.overview(projectId!, counter), enabled: projectId !== null });
  const all = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const current = all.find((d) => d.id === selected) ?? null;
  const refresh = () => qc.invalidateQueries({ queryKey: departmentKeys.all });
  const remove = useChange((id: number) => departmentApi.remove(id), { done: '删除成功', refresh, then: () => setSelected(null) });
  const unassign = useMutation({ mutationFn: (id: number) => departmentApi.unassign(id), onSuccess: () => { message.success('已删除分配记录'); void refresh(); } });
  const budgetOf = useMemo(() => new Map((overview.data?.budgets ?? []).map((b) => [b.departmentId, b])), [overview.data]);
  if (projectId === null) return <NoProject title="部门能耗总览" />;
  const o = overview.data;
  const unit = DEPARTMENT_COUNTERS[counter].unit;
  const warnings = (o?.budgets ?? []).filter((b) => b.state !== 'ok');
  const title = (d: DepartmentDto) => {
    const b = budgetOf.get(d.id);
    return (
      <span data-testid={`dept-${d.name}`}>
        {d.name}
        {b && b.state !== 'ok' && <Tag color={BUDGET_COLOR[b.state]} style={{ marginLeft: 6 }}>{BUDGET_STATE[b.state]}</Tag>}
        <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 4 }}>{d.meters + d.rooms > 0 ? `${d.meters} 表 ${d.rooms} 间` : ''}</Typography.Text>
      </span>
    );
  };
  const nodes = (list: DepartmentDto[]): TreeNode[] => list.map((d) => ({ key: d.id, title: title(d), children: nodes(d.children) }));

  return (
    <PageContainer title="部门能耗总览" extra={
      <Segmented value={counter} onChange={(v) => setCounter(v as DepartmentCounter)} options={Object.entries(DEPARTMENT_COUNTERS).map(([value, c]) => ({ value, label: `${c.label}（${c.unit}）` }))} />
    }>
      <Row gutter={12}>
        <Col xs={24} md={7} xl={6}>
          <Card size="small" title="部门" extra={
            <Space size={4}>
              <Can code="departmentMain:btn_add"><Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button></Can>
              <Can code="departmentMain:btn_edit"><Button size="small" icon={<EditOutlined />} disabled={!current} onClick={() => setEditing(current)}>编辑</Button></Can>
              <Can code="departmentMain:btn_del">
                <Popconfirm title={`删除部门「${current?.name ?? ''}」？`} description="有下级部门或表计、房间分配记录的部门不能删除" onConfirm={() => current && remove.mutate(current.id)} disabled={!current}>
                  <Button size="small" danger icon={<DeleteOutlined />} disabled={!current}>删除</Button>
                </Popconfirm>
              </Can>
            </Space>
          }>
            {tree.isLoading ? <Skeleton active /> : all.length === 0 ? (
              <Empty description="还没有部门，点「新增」建立部门树" />
            ) : (
              <Tree data-testid="department-tree" showLine defaultExpandAll blockNode selectedKeys={selected === null ? [] : [selected]}
                onSelect={(keys) => setSelected(keys.length ? Number(keys[0]) : null)} treeData={nodes(tree.data ?? [])} />
            )}
          </Card>
        </Col>
        <Col xs={24} md={17} xl={18}>
          <Row gutter={12}>
            {[
              { title: `本月（${o?.month ?? ''}）`, value: o?.thisMonth },
              { title: '上月', value: o?.lastMonth },
              { title: '去年同月', value: o?.lastYearMonth },
            ].map((k) => (
              <Col span={6} key={k.title}><Card size="small"><Statistic title={k.title} value={fmt(k.value)} suffix={unit} loading={overview.isLoading} /></Card></Col>
            ))}
            <Col span={6}>
              <Card size="small">
                <Statistic title="环比 / 同比（同期）" value={`${pct(o?.mom)} / ${pct(o?.yoy)}`} loading={overview.isLoading} valueStyle={{ fontSize: 20 }} />
              </Card>
            </Col>
          </Row>
          <Row gutter={12} style={{ marginTop: 12 }}>
            <Col xs={24} xl={15}>
              <Card size="small" title={`本月各部门用量（${unit}，含下级）`}>
                {overview.isLoading ? <Skeleton active /> : !o?.byDepartment.length ? <Empty description="还没有部门" /> : (
                  <ByDepartmentChart unit={unit} rows={o.byDepartment.map((d) => ({ name: d.name, value: d.value }))} />
                )}
              </Card>
            </Col>
            <Col xs={24} xl={9}>
              <Card size="small" title="预算预警（本月电量）" data-testid="budget-warnings">
                {warnings.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={o?.budgets.length ? '各部门用电均在预算内' : '没有设置预算的部门'} /> : (
                  <List size="small" dataSource={warnings} renderItem={(b) => (
                    <List.Item>
                      <Space direction="vertical" size={0} style={{ width: '100%' }}>
                        <span><Tag color={BUDGET_COLOR[b.state]}>{BUDGET_STATE[b.state]}</Tag><b>{b.name}</b></span>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>已用 {fmt(b.used)} / 预算 {b.budgetKwh} kWh，预计全月 {fmt(b.projected)} kWh</Typography.Text>
                      </Space>
                    </List.Item>
                  )} />
                )}
              </Card>
            </Col>
          </Row>
          {o?.notes.map((n) => <Typography.Paragraph key={n} type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>{n}</Typography.Paragraph>)}
          <div style={{ marginTop: 12 }}>
            <DataTable<AssignmentDto>
              title={current ? `「${current.name}」的表计与房间（含历史）` : '全部部门的表计与房间（含历史）'}
              queryKey={departmentKeys.assignments(projectId, selected)}
              fetchPage={departmentApi.assignments}
              params={{ projectId, departmentId: selected ?? undefined }}
              rowKey="id"
              toolbar={<Can code="departmentMain:btn_edit"><Button type="primary" icon={<PlusOutlined />} disabled={!current} title={current ? undefined : '请先在左侧选择部门'} onClick={() => setAssigning(true)}>分配表计/房间</Button></Can>}
              columns={[
                { title: '类型', dataIndex: 'kind', width: 70, render: (v: AssignmentDto['kind']) => <Tag>{ASSIGNMENT_KIND[v]}</Tag> },
                { title: '表计 / 房间', key: 'target', width: 240, render: (_, r) => (r.kind === 'device' ? <>{r.deviceName}<Typography.Text type="secondary">（{r.deviceCode}）</Typography.Text></> : r.place) },
                { title: '位置', dataIndex: 'place', width: 180 },
                { title: '部门', dataIndex: 'departmentName', width: 120 },
                { title: '生效日期', dataIndex: 'from', width: 110 },
                { title: '截止日期', dataIndex: 'to', width: 110, render: (v: string | null) => v ?? <Tag color="green">至今</Tag> },
                { title: '登记人', dataIndex: 'createdBy', width: 100 },
                {
                  title: '操作', key: 'op', width: 200, fixed: 'right', render: (_, r) => (
                    <Space size={0}>
                      {canEdit && r.to === null && <Button type="link" size="small" onClick={() => setMoving(r)}>转移</Button>}
                      {canEdit && <Button type="link" size="small" onClick={() => setDating(r)}>修改日期</Button>}
                      <DeleteLink code="departmentMain:btn_edit" title="删除这条分配记录？其期间的用量将不再计入该部门" onConfirm={() => unassign.mutate(r.id)} />
                    </Space>
                  ),
                },
              ]}
            />
          </div>
        </Col>
      </Row>
      <DepartmentDialog projectId={projectId} tree={tree.data ?? []} editing={editing === 'new' ? null : editing} parentId={editing === 'new' ? selected : null} open={editing !== null}
        onClose={() => setEditing(null)} onDone={(d) => { message.success(editing === 'new' ? `已新增部门「${d.name}」` : '修改成功'); setEditing(null); setSelected(d.id); void refresh(); }} />
      <AssignDialog projectId={projectId} department={current} open={assigning} onClose={() => setAssigning(false)} onDone={() => { message.success('分配成功'); setAssigning(false); void refresh(); }} />
      <MoveDialog assignment={moving} tree={tree.data ?? []} onClose={() => setMoving(null)} onDone={() => { message.success('转移成功'); setMoving(null); void refresh(); }} />
      <DatesDialog assignment={dating} onClose={() => setDating(null)} onDone={() => { message.success('修改成功'); setDating(null); void refresh(); }} />
    </PageContainer>
  );
}

import { useEffect } from 'react';
import { DatePicker, Form, Input, InputNumber, Radio, Select, TreeSelect, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { AssignmentDto, AssignmentKind, DepartmentDto } from '@kelvin/contracts';
import { FormModal } from '../../../components/form-modal';
import { dayjs } from '../../../lib/time';
import type { Dayjs } from 'dayjs';
import { departmentApi, departmentKeys } from '../api';

/** The tree as TreeSelect / Tree data (a department and, optionally, without one branch: no cycles when moving). */
export function treeData(nodes: DepartmentDto[], without?: number): { value: number; title: string; key: number; children: ReturnType<typeof treeData> }[] {
  return nodes.filter((n) => n.id !== without).map((n) => ({ value: n.id, key: n.id, title: n.name, children: treeData(n.children, without) }));
}

export const flatten = (nodes: DepartmentDto[]): DepartmentDto[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const ymd = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : null);

type DepartmentValues = { name: string; parentId?: number; headcount?: number; area?: number; budgetKwh?: number; sortNo?: number; remark?: string };

/** 新增 / 编辑部门: name, parent, headcount, floor area, the monthly budget (kWh of electricity), order. */
export function DepartmentDialog({ projectId, tree, editing, parentId, open, onClose, onDone }: {
  projectId: number; tree: DepartmentDto[]; editing: DepartmentDto | null; parentId: number | null; open: boolean; onClose: () => void; onDone: (d: DepartmentDto) => void;
}) {
  const [form] = Form.useForm<DepartmentValues>();
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing
      ? { name: editing.name, parentId: editing.parentId ?? undefined, headcount: editing.headcount ?? undefined, area: editing.area ?? undefined, budgetKwh: editing.budgetKwh ?? undefined, sortNo: editing.sortNo, remark: editing.remark ?? undefined }
      : { parentId: parentId ?? undefined, sortNo: 0 });
  }, [open, editing, parentId, form]);
  const save = useMutation({
    mutationFn: (v: DepartmentValues) => {
      const body = { name: v.name, parentId: v.parentId ?? null, headcount: v.headcount ?? null, area: v.area ?? null, budgetKwh: v.budgetKwh ?? null, sortNo: v.sortNo ?? 0, remark: v.remark || undefined };
      return editing ? departmentApi.update(editing.id, body) : departmentApi.create({ projectId, ...body });
    },
    onSuccess: onDone,
  });
  return (
    <FormModal<DepartmentValues> title={editing ? `编辑部门「${editing.name}」` : '新增部门'} open={open} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={520}>
      <Form.Item name="name" label="部门名称" rules={[{ required: true, whitespace: true, message: '请填写部门名称' }]}><Input maxLength={60} /></Form.Item>
      <Form.Item name="parentId" label="上级部门" extra="不选则为一级部门">
        <TreeSelect allowClear treeDefaultExpandAll placeholder="（一级部门）" treeData={treeData(tree, editing?.id)} />
      </Form.Item>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="headcount" label="人数" style={{ flex: 1 }}><InputNumber min={0} precision={0} style={{ width: '100%' }} suffix="人" /></Form.Item>
        <Form.Item name="area" label="面积" style={{ flex: 1 }}><InputNumber min={0} precision={2} style={{ width: '100%' }} suffix="m²" /></Form.Item>
      </div>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="budgetKwh" label="月度用电预算" style={{ flex: 1 }} extra="每月电量，含下级部门；超出或预计超出时预警">
          <InputNumber min={0} precision={0} style={{ width: '100%' }} suffix="kWh" />
        </Form.Item>
        <Form.Item name="sortNo" label="排序" style={{ width: 120 }}><InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} /></Form.Item>
      </div>
      <Form.Item name="remark" label="备注"><Input maxLength={200} /></Form.Item>
    </FormModal>
  );
}

type AssignValues = { kind: AssignmentKind; targetId: number; from: Dayjs; to?: Dayjs | null };

/** 分配表计 / 房间: a meter of the project (or a room, whose meters then count) from a day, optionally until one. */
export function AssignDialog({ projectId, department, open, onClose, onDone }: { projectId: number; department: DepartmentDto | null; open: boolean; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<AssignValues>();
  const kind = Form.useWatch('kind', form) ?? 'device';
  const candidates = useQuery({ queryKey: departmentKeys.candidates(projectId), queryFn: () => departmentApi.candidates(projectId), enabled: open });
  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue({ kind: 'device', from: dayjs().startOf('month') });
    }
  }, [open, form]);
  const save = useMutation({
    mutationFn: (v: AssignValues) => departmentApi.assign({
      departmentId: department!.id, kind: v.kind, deviceId: v.kind === 'device' ? v.targetId : null, areaId: v.kind === 'room' ? v.targetId : null, from: ymd(v.from)!, to: ymd(v.to),
    }),
    onSuccess: onDone,
  });
  const options = (candidates.data ?? []).filter((c) => c.kind === kind).map((c) => ({
    value: c.id, label: `${c.label}${c.kind === 'device' && c.place ? ` · ${c.place}` : ''}${c.heldBy ? `（今属 ${c.heldBy}）` : ''}`,
  }));
  return (
    <FormModal<AssignValues> title={`分配表计或房间给「${department?.name ?? ''}」`} open={open} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={560} okText="分配">
      <Form.Item name="kind" label="分配对象">
        <Radio.Group options={[{ value: 'device', label: '表计（电表、热量表）' }, { value: 'room', label: '房间（计入房间内的表计）' }]} onChange={() => form.setFieldValue('targetId', undefined)} />
      </Form.Item>
      <Form.Item name="targetId" label={kind === 'device' ? '表计' : '房间'} rules={[{ required: true, message: kind === 'device' ? '请选择表计' : '请选择房间' }]}>
        <Select showSearch optionFilterProp="label" loading={candidates.isLoading} options={options} placeholder={kind === 'device' ? '输入名称或编号搜索' : '输入楼栋、楼层或房间搜索'}
          notFoundContent={candidates.isLoading ? '加载中…' : kind === 'device' ? '项目中没有电表或热量表' : '项目中没有房间'} />
      </Form.Item>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="from" label="生效日期" style={{ flex: 1 }} rules={[{ required: true, message: '请选择生效日期' }]}><DatePicker style={{ width: '100%' }} /></Form.Item>
        <Form.Item name="to" label="截止日期（不含）" style={{ flex: 1 }} extra="不填则一直有效"><DatePicker style={{ width: '100%' }} /></Form.Item>
      </div>
      <Typography.Text type="secondary">同一表计（房间）在同一天只能属于一个部门；已分配的表计请用「转移」换部门。</Typography.Text>
    </FormModal>
  );
}

/** 转移: the assignment ends the day before the date; the other department holds it from that day. */
export function MoveDialog({ assignment, tree, onClose, onDone }: { assignment: AssignmentDto | null; tree: DepartmentDto[]; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ departmentId: number; date: Dayjs }>();
  useEffect(() => {
    if (assignment) {
      form.resetFields();
      form.setFieldsValue({ date: dayjs().startOf('day') });
    }
  }, [assignment, form]);
  const save = useMutation({ mutationFn: (v: { departmentId: number; date: Dayjs }) => departmentApi.move(assignment!.id, { departmentId: v.departmentId, date: ymd(v.date)! }), onSuccess: onDone });
  const name = assignment ? (assignment.kind === 'device' ? `${assignment.deviceName}（${assignment.deviceCode}）` : assignment.place) : '';
  return (
    <FormModal title={`转移「${name}」`} open={!!assignment} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={480} okText="转移">
      <Typography.Paragraph type="secondary">当前属于「{assignment?.departmentName}」，自 {assignment?.from} 起。转移日期之前的用量仍计入原部门，之后计入新部门。</Typography.Paragraph>
      <Form.Item name="departmentId" label="转移到" rules={[{ required: true, message: '请选择目标部门' }]}>
        <TreeSelect treeDefaultExpandAll treeData={treeData(tree)} placeholder="选择部门" />
      </Form.Item>
      <Form.Item name="date" label="转移日期（新部门自该日起）" rules={[{ required: true, message: '请选择转移日期' }]}><DatePicker style={{ width: '100%' }} /></Form.Item>
    </FormModal>
  );
}

/** 修改日期 of an assignment. */
export function DatesDialog({ assignment, onClose, onDone }: { assignment: AssignmentDto | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ from: Dayjs; to?: Dayjs | null }>();
  useEffect(() => {
    if (assignment) form.setFieldsValue({ from: dayjs(assignment.from), to: assignment.to ? dayjs(assignment.to) : null });
  }, [assignment, form]);
  const save = useMutation({ mutationFn: (v: { from: Dayjs; to?: Dayjs | null }) => departmentApi.updateAssignment(assignment!.id, { from: ymd(v.from)!, to: ymd(v.to) }), onSuccess: onDone });
  return (
    <FormModal title="修改分配日期" open={!!assignment} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={440}>
      <Form.Item name="from" label="生效日期" rules={[{ required: true, message: '请选择生效日期' }]}><DatePicker style={{ width: '100%' }} /></Form.Item>
      <Form.Item name="to" label="截止日期（不含）" extra="不填则一直有效"><DatePicker style={{ width: '100%' }} /></Form.Item>
    </FormModal>
  );
}

import { useEffect } from 'react';
import { DatePicker, Form, Input, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { ACCOUNT_KINDS, accountCreate, type AccountDto, type AccountKind } from '@kelvin/contracts';
import { FormModal } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { accountApi, accountKeys } from '../api';
import { RoomPicker } from './room-picker';

type Values = { kind: AccountKind; name: string; phone: string; idNumber?: string; roomIds: number[]; moveInDate?: Dayjs | null; groupId?: number | null; remark?: string };
const f = accountCreate.shape;

/** 新增 / 编辑 an account: who pays (resident or company), phone, ID number, the rooms it pays for, move-in date, group. */
export function RegisterDialog({ projectId, editing, onClose, onSaved }: {
  projectId: number; editing: AccountDto | 'new' | null; onClose: () => void; onSaved: (id: number) => void;
}) {
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const open = editing !== null;
  const groups = useQuery({ queryKey: [...accountKeys.groups(projectId), 'options'], queryFn: () => accountApi.groups({ projectId, pageNo: 1, pageSize: 200 }), enabled: open });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing === 'new'
      ? { kind: 'resident', roomIds: [], moveInDate: dayjs() }
      : {
        kind: editing.kind, name: editing.name, phone: editing.phone, roomIds: editing.rooms.map((r) => r.id),
        moveInDate: editing.moveInDate ? dayjs(editing.moveInDate) : null, groupId: editing.groupId, remark: editing.remark ?? '',
      });
  }, [open, editing, form]);
  const save = useChange(
    async (v: Values) => {
      const body = {
        kind: v.kind, name: v.name.trim(), phone: v.phone.trim(), roomIds: v.roomIds ?? [],
        moveInDate: v.moveInDate ? v.moveInDate.format('YYYY-MM-DD') : undefined,
        groupId: v.groupId ?? null, remark: v.remark?.trim() || undefined,
        // the ID number is shown masked: it is sent only when typed again
        ...(v.idNumber?.trim() ? { idNumber: v.idNumber.trim() } : {}),
      };
      if (editing === 'new') return (await accountApi.create({ projectId, ...body })).id;
      await accountApi.update((editing as AccountDto).id, body);
      return (editing as AccountDto).id;
    },
    { done: '保存成功', refresh: () => qc.invalidateQueries({ queryKey: accountKeys.all }), then: (id) => onSaved(id) },
  );
  return (
    <FormModal<Values> title={editing === 'new' ? '用户登记' : '编辑账户'} open={open} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={640}>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="kind" label="类型" style={{ width: 140 }}><Select options={Object.entries(ACCOUNT_KINDS).map(([value, label]) => ({ value, label }))} /></Form.Item>
        <Form.Item name="name" label="户名" rules={[zodRule(f.name)]} style={{ flex: 1 }}><Input maxLength={60} placeholder="住户姓名或企业名称" /></Form.Item>
      </div>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="phone" label="手机号" rules={[zodRule(f.phone)]} style={{ flex: 1 }}><Input maxLength={11} inputMode="tel" /></Form.Item>
        <Form.Item name="idNumber" label="证件号码" rules={[zodRule(f.idNumber)]} style={{ flex: 1 }}
          extra={editing !== 'new' && editing?.idNumber ? `现为 ${editing.idNumber}，不修改请留空` : '身份证号或统一社会信用代码，可不填'}>
          <Input maxLength={18} />
        </Form.Item>
      </div>
      <Form.Item name="roomIds" label="房间" rules={[{ required: true, type: 'array', min: 1, message: '请选择至少一个房间' }]}>
        <RoomPicker projectId={projectId} />
      </Form.Item>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="moveInDate" label="入住日期" style={{ flex: 1 }}><DatePicker style={{ width: '100%' }} /></Form.Item>
        <Form.Item name="groupId" label="用户组" style={{ flex: 1 }}>
          <Select allowClear placeholder="不属于用户组" options={(groups.data?.rows ?? []).map((g) => ({ value: g.id, label: g.name }))} />
        </Form.Item>
      </div>
      <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 个字符' }]}><Input.TextArea rows={2} maxLength={200} /></Form.Item>
    </FormModal>
  );
}

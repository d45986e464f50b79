import { useState, type Key } from 'react';
import { App, Button, DatePicker, Form, Input, Popconfirm, Radio, Select, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { HOLIDAY_TYPES, type HolidayDto } from '@kelvin/contracts/system';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { Can, useCan } from '../../../lib/ui';
import { FormModal, DeleteLink } from '../../../components/form-modal';
import { useProject } from '../../../stores/project';
import { holidayApi, systemKeys } from '../api';

const ALL = 0;
const typeName = (t: string) => HOLIDAY_TYPES.find((x) => x.code === t)?.name ?? t;
const thisYear = new Date().getFullYear();

/** holidayManagement_n (节假日管理): holidays and working days, for every project of the tenant or for one project. */
export default function HolidayManagement() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const projects = useProject((s) => s.projects);
  const canDelete = useCan('holidayManagement_n:btn_del');
  const [editing, setEditing] = useState<HolidayDto | 'new' | null>(null);
  const [selected, setSelected] = useState<Key[]>([]);
  const [form] = Form.useForm();
  const refresh = () => qc.invalidateQueries({ queryKey: systemKeys.holidays });
  const projectOptions = [{ value: ALL, label: '全部项目' }, ...projects.map((p) => ({ value: p.id, label: p.label }))];

  const save = useChange(
    (v: { date: dayjs.Dayjs; type: string; projectId: number; name?: string }) => holidayApi.save({
      ...(editing !== 'new' && editing ? { id: editing.id } : {}),
      date: v.date.format('YYYY-MM-DD'), type: v.type, projectId: v.projectId || null, name: v.name || null,
    }),
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const remove = useMutation({
    mutationFn: (ids: number[]) => holidayApi.remove(ids),
    onSuccess: (r) => {
      message.success(`已删除 ${r.deleted} 条`);
      setSelected([]);
      refresh();
    },
  });
  const open = (h: HolidayDto | 'new') => {
    setEditing(h);
    form.resetFields();
    form.setFieldsValue(h === 'new' ? { type: 'holiday', projectId: ALL } : { ...h, date: dayjs(h.date), projectId: h.projectId ?? ALL });
  };

  return (
    <PageContainer title="节假日管理">
      <DataTable<HolidayDto>
        queryKey={systemKeys.holidays}
        fetchPage={holidayApi.page}
        rowKey="id"
        filters={[
          { name: 'year', label: '年份', kind: 'select', options: Array.from({ length: 6 }, (_, i) => thisYear - 2 + i).map((y) => ({ value: y, label: `${y} 年` })), width: 120 },
          { name: 'projectId', label: '项目', kind: 'select', options: projectOptions, width: 200 },
          { name: 'type', label: '类型', kind: 'select', options: HOLIDAY_TYPES.map((t) => ({ value: t.code, label: t.name })) },
        ]}
        rowSelection={canDelete ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
        toolbar={(
          <Space>
            {canDelete && selected.length > 0 && (
              <Popconfirm title={`确定删除选中的 ${selected.length} 条？`} onConfirm={() => remove.mutate(selected.map(Number))}>
                <Button danger>批量删除</Button>
              </Popconfirm>
            )}
            <Can code="holidayManagement_n:btn_edit"><Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>新增节假日</Button></Can>
          </Space>
        )}
        columns={[
          { title: '日期', dataIndex: 'date', width: 140, render: (v: string) => `${v} 星期${'日一二三四五六'[dayjs(v).day()]}` },
          { title: '类型', dataIndex: 'type', width: 160, render: (v: string) => <Tag color={v === 'holiday' ? 'red' : 'blue'}>{typeName(v)}</Tag> },
          { title: '名称', dataIndex: 'name', render: (v) => v ?? '—' },
          { title: '适用项目', dataIndex: 'projectName', render: (v, h) => (h.projectId === null ? '全部项目' : v ?? `项目 ${h.projectId}`) },
          {
            title: '操作', key: 'op', width: 140, render: (_, h) => (
              <Space size={4}>
                <Can code="holidayManagement_n:btn_edit"><Button type="link" size="small" onClick={() => open(h)}>编辑</Button></Can>
                <DeleteLink code="holidayManagement_n:btn_del" title={`确定删除 ${h.date}？`} onConfirm={() => remove.mutate([h.id])} />
              </Space>
            ),
          },
        ]}
      />
      <FormModal title={editing === 'new' ? '新增节假日' : '编辑节假日'} open={editing !== null} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="date" label="日期" rules={[{ required: true, message: '请选择日期' }]}><DatePicker style={{ width: '100%' }} /></Form.Item>
        <Form.Item name="type" label="类型" extra="调休工作日：该日按工作日对待（即使是周末）">
          <Radio.Group options={HOLIDAY_TYPES.map((t) => ({ value: t.code, label: t.name }))} />
        </Form.Item>
        <Form.Item name="projectId" label="适用项目" extra="同一天项目自己的设置优先于“全部项目”"><Select options={projectOptions} showSearch={{ optionFilterProp: 'label' }} /></Form.Item>
        <Form.Item name="name" label="名称" rules={[{ max: 50, message: '名称最多 50 个字符' }]}><Input maxLength={50} placeholder="例如 春节" /></Form.Item>
      </FormModal>
    </PageContainer>
  );
}

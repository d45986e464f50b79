import { useEffect, useState } from 'react';
import { App, Button, DatePicker, Form, Input, Select, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DEVICE_TYPE_BY_CODE, METERING_METHOD_TYPES, projectPlanBody, type DevicePlanRow, type MeteringMethodType, type ProjectPlanRow,
} from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable, updatedColumn } from '../../../components/data-table';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { dayjs, formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { billingConfigApi, billingKeys } from '../api';
import { FieldGrid, PriceInput } from '../components/config-fields';

type PlanValues = { planName: string; meteringMethodType: MeteringMethodType; price: string; effectiveAt: Dayjs; remark?: string };
const p = projectPlanBody.shape;
const METHOD_OPTIONS = (Object.entries(METERING_METHOD_TYPES) as [MeteringMethodType, string][]).map(([value, label]) => ({ value, label }));

/** The hidden screen that adds devices to a plan (addDevicePlan_n), opened on a plan. */
export const addDevicePlanPath = (planId?: number) => `/device/addDevicePlan_n${planId ? `?planId=${planId}` : ''}`;

/**
 * jffa2020x1 (计费方案设置): the project's metering plans (计量方式, 单价, from 生效时间) and the devices billed by each
 * (a device is on one plan at a time; adding it to another moves it from that plan's date on).
 */
export default function PlansPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<ProjectPlanRow | 'new' | null>(null);
  const [devicesOf, setDevicesOf] = useState<ProjectPlanRow | null>(null);
  const [form] = Form.useForm<PlanValues>();
  const refresh = () => qc.invalidateQueries({ queryKey: billingKeys.plans });
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(editing === 'new'
      ? { meteringMethodType: 'timeEquivalent', effectiveAt: dayjs() }
      : { planName: editing.name, meteringMethodType: editing.meteringMethodType, price: editing.price, effectiveAt: dayjs(editing.effectiveFrom), remark: editing.remark });
  }, [editing, form]);
  const save = useChange(
    (v: PlanValues) => {
      const body = { projectId: projectId!, name: v.planName.trim(), meteringMethodType: v.meteringMethodType, price: v.price.trim(), effectiveFrom: v.effectiveAt.valueOf(), remark: v.remark?.trim() ?? '' };
      return editing === 'new' ? billingConfigApi.createProjectPlan(body) : billingConfigApi.updateProjectPlan((editing as ProjectPlanRow).projectPlanId, body);
    },
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const remove = useChange((id: number) => billingConfigApi.removeProjectPlans([id]), { done: '删除成功', refresh });

  if (projectId === null) return <NoProject title="计费方案设置" />;
  return (
    <PageContainer title="计费方案设置">
      <Typography.Text type="secondary">计费方案规定设备的计量方式和单价；设备加入方案后，从其生效时间起按该方案计费。</Typography.Text>
      <DataTable<ProjectPlanRow>
        queryKey={billingKeys.projectPlans(projectId)}
        fetchPage={billingConfigApi.projectPlans}
        params={{ projectId }}
        rowKey="projectPlanId"
        toolbar={(
          <Space>
            <Can code="addDevicePlan_n:btn_add"><Button icon={<PlusOutlined />} onClick={() => navigate(addDevicePlanPath())}>添加设备方案</Button></Can>
            <Can code="jffa2020x1:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button></Can>
          </Space>
        )}
        columns={[
          { title: '方案编号', dataIndex: 'projectPlanId', width: 90 },
          { title: '方案名称', dataIndex: 'name', width: 170 },
          { title: '计量方式', dataIndex: 'meteringMethodType', width: 110, render: (v: MeteringMethodType) => METERING_METHOD_TYPES[v] ?? v },
          { title: '单价（元）', dataIndex: 'price', width: 100, align: 'right' },
          { title: '生效时间', dataIndex: 'effectiveFrom', width: 150, render: (v: number) => formatDateTime(v, 'YYYY-MM-DD HH:mm') },
          { title: '设备数', dataIndex: 'devices', width: 80, align: 'right' },
          { title: '备注', dataIndex: 'remark', width: 130, render: (v: string) => v || '—' },
          updatedColumn(),
          {
            title: '操作', key: 'op', width: 160, fixed: 'right', render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setDevicesOf(r)}>设备</Button>
                <Can code="jffa2020x1:btn_edit"><Button type="link" size="small" onClick={() => setEditing(r)}>编辑</Button></Can>
                <DeleteLink code="jffa2020x1:btn_del" title={`确定删除方案「${r.name}」？`} onConfirm={() => remove.mutate(r.projectPlanId)} />
              </Space>
            ),
          },
        ]}
      />
      <FormModal<PlanValues> title={editing === 'new' ? '新增计费方案' : '编辑计费方案'} open={!!editing} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={600}>
        <Form.Item name="planName" label="方案名称" rules={[zodRule(p.name)]}><Input maxLength={40} placeholder="如 办公区空调按时间计费" /></Form.Item>
        <FieldGrid>
          <Form.Item name="meteringMethodType" label="计量方式" rules={[{ required: true, message: '请选择计量方式' }]}><Select options={METHOD_OPTIONS} /></Form.Item>
          <Form.Item name="price" label="单价（元）" rules={[zodRule(p.price)]}><PriceInput /></Form.Item>
        </FieldGrid>
        <Form.Item name="effectiveAt" label="生效时间" rules={[{ required: true, message: '请选择生效时间' }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 字' }]}><Input.TextArea rows={2} maxLength={200} /></Form.Item>
      </FormModal>
      <PlanDevicesDrawer plan={devicesOf} onClose={() => setDevicesOf(null)} />
    </PageContainer>
  );
}

function PlanDevicesDrawer({ plan, onClose }: { plan: ProjectPlanRow | null; onClose: () => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: (id: number) => billingConfigApi.removeDevicePlans([id]),
    onSuccess: () => {
      message.success('已移除');
      void qc.invalidateQueries({ queryKey: billingKeys.plans });
    },
  });
  return (
    <AppDrawer rootClassName="kv-billing-drawer" open={!!plan} title={`方案设备 · ${plan?.name ?? ''}`} size={860} onClose={onClose} destroyOnHidden>
      {plan && (
        <DataTable<DevicePlanRow>
          queryKey={billingKeys.devicePlans(plan.projectPlanId)}
          fetchPage={billingConfigApi.devicePlans}
          params={{ projectPlanId: plan.projectPlanId }}
          rowKey="id"
          defaultPageSize={10}
          toolbar={<Can code="addDevicePlan_n:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => {
            // the list stays cached behind the next screen: its drawer must not
            onClose();
            navigate(addDevicePlanPath(plan.projectPlanId));
          }}>添加设备</Button></Can>}
          columns={[
            { title: '设备编号', dataIndex: 'deviceCode', width: 160 },
            { title: '设备名称', dataIndex: 'deviceName', width: 180 },
            { title: '设备类型', dataIndex: 'deviceType', width: 150, render: (v: string) => DEVICE_TYPE_BY_CODE.get(v)?.name ?? v },
            { title: '生效时间', dataIndex: 'effectiveFrom', width: 150, render: (v: number) => formatDateTime(v, 'YYYY-MM-DD HH:mm') },
            {
              title: '操作', key: 'op', width: 80, fixed: 'right', render: (_, d) => (
                <DeleteLink code="addDevicePlan_n:btn_del" label="移除" title={`将「${d.deviceName}」移出方案？`} onConfirm={() => remove.mutate(d.id)} />
              ),
            },
          ]}
        />
      )}
    </AppDrawer>
  );
}

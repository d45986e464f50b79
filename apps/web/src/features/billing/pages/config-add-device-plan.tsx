import { useEffect, useState } from 'react';
import { App, Button, Card, DatePicker, Form, Select } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { METERING_METHOD_TYPES, type DeviceRow } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { parseProjectId } from '../../../stores/project';
import { dayjs } from '../../../lib/time';
import { Can, PreventClickButton } from '../../../lib/ui';
import { DevicePicker } from '../../device-management';
import { billingConfigApi, billingKeys } from '../api';

type Values = { projectPlanId: number; effectiveAt: Dayjs };

/**
 * addDevicePlan_n (添加设备方案, hidden; opened from 计费方案设置): pick devices of the project and put them on a plan
 * from a date — a device on another plan moves to this one from then on.
 */
export default function AddDevicePlanPage() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="添加设备方案" />;
  return <AddDevicePlan key={projectId} projectId={projectId} />;
}

function AddDevicePlan({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const [devices, setDevices] = useState<DeviceRow[]>([]);
  const plans = useQuery({
    queryKey: [...billingKeys.projectPlans(projectId), 'options'],
    queryFn: () => billingConfigApi.projectPlans({ projectId, pageNo: 1, pageSize: 200 }),
  });
  useEffect(() => {
    const wanted = parseProjectId(search.get('planId'));
    form.setFieldsValue({ effectiveAt: dayjs(), ...(wanted ? { projectPlanId: wanted } : {}) });
  }, [search, form]);
  const back = () => navigate('/device/jffa2020x1');
  const save = useMutation({
    mutationFn: (v: Values) => billingConfigApi.addDevicePlans(v.projectPlanId, devices.map((d) => d.id), v.effectiveAt.valueOf()),
    onSuccess: () => {
      message.success(`已将 ${devices.length} 台设备加入方案`);
      void qc.invalidateQueries({ queryKey: billingKeys.plans });
      back();
    },
  });
  return (
    <PageContainer title="添加设备方案" extra={<Button icon={<ArrowLeftOutlined />} onClick={back}>返回计费方案设置</Button>}>
      <Card size="small" variant="borderless">
        <Form form={form} layout="inline" style={{ rowGap: 8 }}>
          <Form.Item name="projectPlanId" label="计费方案" rules={[{ required: true, message: '请选择计费方案' }]}>
            <Select style={{ width: 320 }} loading={plans.isLoading} placeholder="选择本项目的计费方案"
              notFoundContent="本项目还没有计费方案，请先在计费方案设置中新增"
              options={(plans.data?.rows ?? []).map((p) => ({ value: p.projectPlanId, label: `${p.name}（${METERING_METHOD_TYPES[p.meteringMethodType] ?? p.meteringMethodType}，${p.price} 元）` }))} />
          </Form.Item>
          <Form.Item name="effectiveAt" label="生效时间" rules={[{ required: true, message: '请选择生效时间' }]} tooltip="设备从此时起按该方案计费">
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item>
            <Can code="addDevicePlan_n:btn_add">
              <PreventClickButton type="primary" disabled={!devices.length} loading={save.isPending}
                onClick={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}>
                加入方案{devices.length ? `（${devices.length} 台）` : ''}
              </PreventClickButton>
            </Can>
          </Form.Item>
        </Form>
      </Card>
      <DevicePicker projectId={projectId} selected={devices} onChange={setDevices} queryKey="billing-device-plan" />
    </PageContainer>
  );
}

import { useEffect, useState } from 'react';
import { App, Button, Empty, Form, Radio, Select, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEVICE_RELATION_ROLES, DEVICE_TYPE_BY_CODE, type DeviceRelationRole, type DeviceRelationRow, type DeviceRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { DeleteLink } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { AppModal, Can, PreventClickButton } from '../../../lib/ui';
import { DevicePicker } from '../../device-management';
import { billingConfigApi, billingKeys } from '../api';

const ROLE_COLOR: Record<DeviceRelationRole, string> = { total: 'blue', public: 'green' };
const ROLE_SHORT: Record<DeviceRelationRole, string> = { total: '总表', public: '公共区域表' };

/**
 * devicerelation (设备关联; projectType2 102/104): per share team, the devices whose use makes the cost split —
 * 总表 (plant / main meters: the total cost C) and 公共区域表 (public-area meters: C公共, split by area).
 */
export default function DeviceRelationPage() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [teamId, setTeamId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const teams = useQuery({
    queryKey: [...billingKeys.shareTeams(projectId), 'options'],
    queryFn: () => billingConfigApi.shareTeams({ projectId: projectId!, pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null,
  });
  const teamName = new Map((teams.data?.rows ?? []).map((t) => [t.shareTeamId, t.name]));
  useEffect(() => setTeamId(null), [projectId]);
  const remove = useMutation({
    mutationFn: (id: number) => billingConfigApi.removeDeviceRelations([id]),
    onSuccess: () => {
      message.success('已移除');
      void qc.invalidateQueries({ queryKey: billingKeys.share });
    },
  });

  if (projectId === null) return <NoProject title="设备关联" />;
  const noTeams = teams.isSuccess && !teams.data.rows.length;
  return (
    <PageContainer title="设备关联">
      <Typography.Text type="secondary">
        总表的用量构成分摊组的总费用，公共区域表的用量构成公共费用（按面积分摊）。一台设备可同时关联多个分摊组。
      </Typography.Text>
      {noTeams ? <Empty description="本项目还没有分摊组：请先在「分摊组」中新增" /> : (
        <>
          <Space>
            <Typography.Text>分摊组</Typography.Text>
            <Select style={{ width: 240 }} allowClear placeholder="全部分摊组" value={teamId} onChange={(v?: number) => setTeamId(v ?? null)} loading={teams.isLoading}
              options={(teams.data?.rows ?? []).map((t) => ({ value: t.shareTeamId, label: t.name }))} data-testid="relation-team" />
          </Space>
          <DataTable<DeviceRelationRow>
            queryKey={billingKeys.deviceRelations(projectId, teamId)}
            fetchPage={billingConfigApi.deviceRelations}
            params={teamId ? { shareTeamId: teamId } : { projectId }}
            rowKey="id"
            toolbar={<Can code="devicerelation:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>添加关联设备</Button></Can>}
            columns={[
              { title: '分摊组', dataIndex: 'shareTeamId', width: 160, render: (v: number) => teamName.get(v) ?? `#${v}` },
              { title: '设备编号', dataIndex: 'deviceCode', width: 160 },
              { title: '设备名称', dataIndex: 'deviceName', width: 180 },
              { title: '设备类型', dataIndex: 'deviceType', width: 150, render: (v: string) => DEVICE_TYPE_BY_CODE.get(v)?.name ?? v },
              { title: '关联类型', dataIndex: 'role', width: 120, render: (v: DeviceRelationRole) => <Tag color={ROLE_COLOR[v]}>{ROLE_SHORT[v]}</Tag> },
              {
                title: '操作', key: 'op', width: 90, fixed: 'right', render: (_, r) => (
                  <DeleteLink code="devicerelation:btn_del" label="移除" title={`将「${r.deviceName}」从分摊组「${teamName.get(r.shareTeamId) ?? ''}」移除？`} onConfirm={() => remove.mutate(r.id)} />
                ),
              },
            ]}
          />
        </>
      )}
      <AddRelationDialog projectId={projectId} open={adding} teamId={teamId} teams={teams.data?.rows.map((t) => ({ value: t.shareTeamId, label: t.name })) ?? []} onClose={() => setAdding(false)} />
    </PageContainer>
  );
}

type AddValues = { shareTeamId: number; role: DeviceRelationRole };

function AddRelationDialog({ projectId, open, teamId, teams, onClose }: {
  projectId: number; open: boolean; teamId: number | null; teams: { value: number; label: string }[]; onClose: () => void;
}) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<AddValues>();
  const [devices, setDevices] = useState<DeviceRow[]>([]);
  useEffect(() => {
    if (!open) return;
    setDevices([]);
    form.resetFields();
    form.setFieldsValue({ shareTeamId: teamId ?? teams[0]?.value, role: 'total' });
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps
  const save = useMutation({
    mutationFn: (v: AddValues) => billingConfigApi.addDeviceRelations(v.shareTeamId, devices.map((d) => d.id), v.role),
    onSuccess: () => {
      message.success('已添加');
      void qc.invalidateQueries({ queryKey: billingKeys.share });
      onClose();
    },
  });
  return (
    <AppModal
      title="添加关联设备"
      open={open}
      width={1060}
      onCancel={onClose}
      footer={[
        <Button key="c" onClick={onClose}>取消</Button>,
        <PreventClickButton key="ok" type="primary" disabled={!devices.length} loading={save.isPending}
          onClick={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}>
          添加{devices.length ? `（${devices.length} 台）` : ''}
        </PreventClickButton>,
      ]}
    >
      <Form form={form} layout="inline" style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="shareTeamId" label="分摊组" rules={[{ required: true, message: '请选择分摊组' }]}>
          <Select style={{ width: 220 }} options={teams} placeholder="选择分摊组" />
        </Form.Item>
        <Form.Item name="role" label="关联类型" rules={[{ required: true, message: '请选择关联类型' }]}>
          <Radio.Group options={(Object.entries(DEVICE_RELATION_ROLES) as [DeviceRelationRole, string][]).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
      </Form>
      {open && <DevicePicker projectId={projectId} selected={devices} onChange={setDevices} queryKey="billing-relation" />}
    </AppModal>
  );
}

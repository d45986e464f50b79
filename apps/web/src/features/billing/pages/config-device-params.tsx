import { useEffect, useState } from 'react';
import { App, Button, Form, Radio, Space, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICE_TYPE_BY_CODE, deviceParamBody, type DeviceParamRow } from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { FormModal } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { formatFen } from '../../accounts';
import { useDeviceTypes } from '../../devices';
import { billingConfigApi, billingKeys, type DeviceParamSave } from '../api';
import { FactorInput, FieldGrid, PriceInput, yuanOrZeroRule, yuanOrZeroToFen } from '../components/config-fields';
import { EffectiveItems, effectiveFromOf, type EffectiveValues } from '../components/config-effective';

type Field = 'ratedPower' | 'chargeRate' | 'baseFee';
interface Screen { title: string; types: string[] | null; fields: Field[]; intro: string }
const SCREENS: Record<string, Screen> = {
  device20030para: {
    title: '空调计费参数', types: ['device20030', 'device20030V2'], fields: ['ratedPower', 'chargeRate'],
    intro: '空调计费温控器的额定功率（能量当量 = T当量 × 额定功率）和计费系数（乘在该设备的用量上，默认 1）。',
  },
  deviceAG2420para: {
    title: 'AG2420 计费参数', types: ['deviceAG2420'], fields: ['ratedPower', 'chargeRate'],
    intro: 'AG2420 4G 空调计费器的额定功率和计费系数。',
  },
  devicebasefee: {
    title: '设备基础费', types: null, fields: ['baseFee'],
    intro: '每台设备每月固定收取的基础费（如表计租赁、维护费），随结算周期出账。',
  },
};
const b = deviceParamBody.shape;
const typeName = (code: string) => DEVICE_TYPE_BY_CODE.get(code)?.name ?? code;

/**
 * device20030para (空调计费参数), deviceAG2420para (AG2420 计费参数) and devicebasefee (设备基础费): the devices of the
 * project with the billing parameters in force; pick rows → 批量修改 from a 生效时间 (one new version per device,
 * unchanged fields carried over); each device's history in a drawer.
 */
export default function DeviceParamsPage() {
  const { pathname } = useLocation();
  const code = pathname.split('/').filter(Boolean).find((s) => s in SCREENS) ?? 'device20030para';
  const screen = SCREENS[code]!;
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title={screen.title} />;
  return (
    <PageContainer title={screen.title}>
      <Typography.Text type="secondary">{screen.intro}</Typography.Text>
      <ParamsTable key={`${code}:${projectId}`} code={code} screen={screen} projectId={projectId} />
    </PageContainer>
  );
}

function ParamsTable({ code, screen, projectId }: { code: string; screen: Screen; projectId: number }) {
  const types = useDeviceTypes(projectId);
  const present = (screen.types ?? []).filter((t) => (types.data ?? []).some((x) => x.code === t && x.total > 0));
  const [type, setType] = useState<string | undefined>(screen.types?.[0]);
  useEffect(() => {
    // start on a type the project has
    if (screen.types && present.length && !present.includes(type!)) setType(present[0]);
  }, [present.join(), screen.types, type]); // eslint-disable-line react-hooks/exhaustive-deps
  const [selected, setSelected] = useState<DeviceParamRow[]>([]);
  const [editing, setEditing] = useState<DeviceParamRow[] | null>(null);
  const [history, setHistory] = useState<DeviceParamRow | null>(null);
  const money = screen.fields.includes('baseFee');

  return (
    <>
      {screen.types && (present.length ? present : screen.types).length > 1 && (
        <Radio.Group optionType="button" value={type} onChange={(e) => { setType(e.target.value as string); setSelected([]); }}
          options={(present.length ? present : screen.types).map((t) => ({ value: t, label: typeName(t) }))} />
      )}
      <DataTable<DeviceParamRow>
        queryKey={billingKeys.deviceParams(projectId)}
        fetchPage={billingConfigApi.deviceParams}
        params={{ projectId, deviceType: screen.types ? type : undefined }}
        rowKey="deviceId"
        filters={[
          ...(screen.types ? [] : [{
            name: 'deviceType', label: '设备类型', kind: 'select' as const,
            options: (types.data ?? []).filter((t) => t.total > 0).map((t) => ({ value: t.code, label: t.name })),
          }]),
          { name: 'keyword', label: '设备', placeholder: '设备编号或名称' },
        ]}
        title={<Typography.Text>已选 <b data-testid="selected-count">{selected.length}</b> 台</Typography.Text>}
        toolbar={(
          <Can code={`${code}:btn_edit`}>
            <Button type="primary" icon={<EditOutlined />} disabled={!selected.length} onClick={() => setEditing(selected)}>批量修改</Button>
          </Can>
        )}
        rowSelection={{
          preserveSelectedRowKeys: true,
          selectedRowKeys: selected.map((r) => r.deviceId),
          onChange: (keys, rows) => {
            const keep = new Map(selected.map((r) => [r.deviceId, r]));
            setSelected(keys.map((k) => rows.find((r) => r?.deviceId === k) ?? keep.get(k as number)).filter((r): r is DeviceParamRow => !!r));
          },
        }}
        columns={[
          { title: '设备编号', dataIndex: 'deviceCode', width: 150 },
          { title: '设备名称', dataIndex: 'deviceName', width: 160, ellipsis: true },
          { title: '类型', dataIndex: 'deviceType', width: 140, ellipsis: true, render: (v: string) => typeName(v) },
          { title: '位置', dataIndex: 'areaName', width: 130, render: (v: string | null) => v ?? '—' },
          ...(money
            ? [{ title: '基础费（元/月）', dataIndex: 'baseFeeFen', width: 130, align: 'right' as const, render: (v: number) => formatFen(v) }]
            : [
              { title: '额定功率（kW）', dataIndex: 'ratedPower', width: 120, align: 'right' as const },
              { title: '计费系数', dataIndex: 'chargeRate', width: 100, align: 'right' as const },
            ]),
          { title: '生效时间', dataIndex: 'effectiveFrom', width: 140, render: (v: number | null) => (v ? formatDateTime(v, 'YYYY-MM-DD HH:mm') : '默认值') },
          { title: '修改人', dataIndex: 'updatedBy', width: 90, render: (v: string | null) => v ?? '—' },
          {
            title: '操作', key: 'op', width: 120, fixed: 'right', render: (_, r) => (
              <Space size={0}>
                <Can code={`${code}:btn_edit`}><Button type="link" size="small" onClick={() => setEditing([r])}>修改</Button></Can>
                <Button type="link" size="small" onClick={() => setHistory(r)}>记录</Button>
              </Space>
            ),
          },
        ]}
      />
      <EditDialog screen={screen} projectId={projectId} devices={editing} onClose={() => setEditing(null)} onSaved={() => setSelected([])} />
      <HistoryDrawer device={history} money={money} onClose={() => setHistory(null)} />
    </>
  );
}

type EditValues = EffectiveValues & { ratedPower?: string; chargeRate?: string; baseFee?: string };

function EditDialog({ screen, projectId, devices, onClose, onSaved }: { screen: Screen; projectId: number; devices: DeviceParamRow[] | null; onClose: () => void; onSaved: () => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<EditValues>();
  const one = devices?.length === 1 ? devices[0]! : null;
  useEffect(() => {
    if (!devices) return;
    form.resetFields();
    if (one) form.setFieldsValue({ ratedPower: one.ratedPower, chargeRate: one.chargeRate, baseFee: formatFen(one.baseFeeFen).replace(/,/g, '') });
  }, [devices, one, form]);
  const save = useMutation({
    mutationFn: (v: EditValues) => {
      const body: DeviceParamSave = { deviceIds: devices!.map((d) => d.deviceId), effectiveFrom: effectiveFromOf(v) };
      if (v.ratedPower?.trim()) body.ratedPower = v.ratedPower.trim();
      if (v.chargeRate?.trim()) body.chargeRate = v.chargeRate.trim();
      if (v.baseFee?.trim()) {
        const r = yuanOrZeroToFen(v.baseFee);
        if (r.ok) body.baseFeeFen = r.fen;
      }
      return billingConfigApi.saveDeviceParams(body);
    },
    onSuccess: (r) => {
      message.success(`已修改 ${r.updated} 台设备的计费参数`);
      void qc.invalidateQueries({ queryKey: billingKeys.deviceParams(projectId) });
      void qc.invalidateQueries({ queryKey: billingKeys.deviceParamHistories });
      onSaved();
      onClose();
    },
  });
  const optional = !one;
  const atLeastOne = ({ getFieldsValue }: { getFieldsValue: () => EditValues }) => ({
    validator: async () => {
      const v = getFieldsValue();
      if (!screen.fields.some((f) => v[f]?.trim())) throw new Error('请至少填写一项参数');
    },
  });
  return (
    <FormModal<EditValues>
      title={one ? `修改计费参数：${one.deviceName}` : `批量修改计费参数（${devices?.length ?? 0} 台）`}
      open={!!devices}
      onClose={onClose}
      form={form}
      saving={save.isPending}
      onSave={(v) => save.mutate(v)}
      width={560}
    >
      {optional && <Typography.Paragraph type="secondary">留空的参数不修改，各设备保持原值。</Typography.Paragraph>}
      <FieldGrid>
        {screen.fields.includes('ratedPower') && (
          <Form.Item name="ratedPower" label="额定功率（kW）" dependencies={['chargeRate']} rules={[zodRule(b.ratedPower), atLeastOne]}>
            <FactorInput placeholder={optional ? '不修改' : '如 3.5'} />
          </Form.Item>
        )}
        {screen.fields.includes('chargeRate') && (
          <Form.Item name="chargeRate" label="计费系数" dependencies={['ratedPower']} rules={[zodRule(b.chargeRate)]}>
            <FactorInput placeholder={optional ? '不修改' : '如 1'} />
          </Form.Item>
        )}
        {screen.fields.includes('baseFee') && (
          <Form.Item name="baseFee" label="基础费（元/月）" rules={[yuanOrZeroRule('基础费')]}>
            <PriceInput unit="元/月" placeholder="如 10 或 0" />
          </Form.Item>
        )}
      </FieldGrid>
      <EffectiveItems extra="此前的时段仍按原参数计费" />
    </FormModal>
  );
}

function HistoryDrawer({ device, money, onClose }: { device: DeviceParamRow | null; money: boolean; onClose: () => void }) {
  return (
    <AppDrawer rootClassName="kv-billing-drawer" open={!!device} title={`计费参数记录 · ${device?.deviceName ?? ''}`} size={760} onClose={onClose} destroyOnHidden>
      {device && (
        <DataTable<DeviceParamRow>
          queryKey={billingKeys.deviceParamHistory(device.deviceId)}
          fetchPage={(q) => billingConfigApi.deviceParamHistory(device.deviceId, q)}
          rowKey={(r) => `${r.effectiveFrom}:${r.updatedBy}:${r.chargeRate}:${r.ratedPower}:${r.baseFeeFen}`}
          defaultPageSize={10}
          columns={[
            { title: '生效时间', dataIndex: 'effectiveFrom', width: 160, render: (v: number | null) => (v ? formatDateTime(v, 'YYYY-MM-DD HH:mm') : '默认值') },
            ...(money
              ? [{ title: '基础费（元/月）', dataIndex: 'baseFeeFen', width: 130, align: 'right' as const, render: (v: number) => formatFen(v) }]
              : [
                { title: '额定功率（kW）', dataIndex: 'ratedPower', width: 120, align: 'right' as const },
                { title: '计费系数', dataIndex: 'chargeRate', width: 100, align: 'right' as const },
              ]),
            { title: '修改人', dataIndex: 'updatedBy', width: 110, render: (v: string | null) => v ?? '—' },
          ]}
        />
      )}
    </AppDrawer>
  );
}

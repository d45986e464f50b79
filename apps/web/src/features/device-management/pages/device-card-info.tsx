import { useState } from 'react';
import { App, Badge, Button, DatePicker, Empty, Form, Input, InputNumber, Progress, Select, Space, Tag, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { CARRIERS, deviceCardBody, type Device4gRow, type DeviceCard } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { dmApi, dmKeys } from '../api';

const c = deviceCardBody.shape;
/** Packages ending within this many days are flagged. */
const SOON_DAYS = 30;

function expiry(card: DeviceCard | null) {
  if (!card?.packageEnd) return '—';
  const left = card.packageDaysLeft ?? 0;
  const date = formatDateTime(card.packageEnd, 'YYYY-MM-DD');
  if (left < 0) return <Tooltip title={`已过期 ${-left} 天`}><Tag color="red" data-testid="card-expired">{date} 已到期</Tag></Tooltip>;
  if (left <= SOON_DAYS) return <Tag color="orange" data-testid="card-expiring">{date}（剩 {left} 天）</Tag>;
  return <span>{date}<span style={{ color: '#999' }}>（剩 {left} 天）</span></span>;
}

function usage(card: DeviceCard | null) {
  if (!card || card.dataUsedMb === null) return '—';
  if (!card.dataLimitMb) return `${card.dataUsedMb} MB`;
  const pct = Math.min(100, Math.round((card.dataUsedMb / card.dataLimitMb) * 100));
  return (
    <Tooltip title={`${card.dataUsedMb} / ${card.dataLimitMb} MB`}>
      <Progress percent={pct} size="small" status={pct >= 90 ? 'exception' : 'normal'} format={() => `${card.dataUsedMb}/${card.dataLimitMb} MB`} style={{ width: 170 }} />
    </Tooltip>
  );
}

type FormValues = { deviceCode: string; iccid: string; carrier: string; activatedAt?: Dayjs; packageEnd?: Dayjs; dataLimitMb?: number; dataUsedMb?: number };

/** deviceCardInfoList (物联网卡信息): the SIM card of each 4G device — ICCID, carrier, package end, data used. */
export default function DeviceCardInfo() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<{ device?: Device4gRow } | null>(null);
  const [form] = Form.useForm<FormValues>();
  const refresh = () => qc.invalidateQueries({ queryKey: dmKeys.cards });
  // 4G devices without a card, for 新增
  const bare = useQuery({
    queryKey: dmKeys.bareCards(projectId),
    queryFn: () => dmApi.cards({ projectId: projectId!, hasCard: '0', pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null && editing !== null && !editing.device,
  });

  const save = useChange(
    (v: FormValues) => dmApi.saveCard({
      deviceCode: v.deviceCode, iccid: v.iccid.trim(), carrier: v.carrier as (typeof CARRIERS)[number],
      activatedAt: v.activatedAt ? v.activatedAt.startOf('day').valueOf() : null,
      packageEnd: v.packageEnd ? v.packageEnd.endOf('day').valueOf() : null,
      dataLimitMb: v.dataLimitMb ?? null,
      dataUsedMb: v.dataUsedMb ?? null,
    }),
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const unbind = useMutation({
    mutationFn: (code: string) => dmApi.removeCard(code),
    onSuccess: () => {
      message.success('已解绑');
      void refresh();
    },
  });

  if (projectId === null) return <NoProject title="物联网卡信息" />;
  const open = (device?: Device4gRow) => {
    form.resetFields();
    if (device) {
      const k = device.card;
      form.setFieldsValue({
        deviceCode: device.deviceCode, iccid: k?.iccid, carrier: k?.carrier ?? CARRIERS[0],
        activatedAt: k?.activatedAt ? dayjs(k.activatedAt) : undefined, packageEnd: k?.packageEnd ? dayjs(k.packageEnd) : undefined,
        dataLimitMb: k?.dataLimitMb ?? undefined, dataUsedMb: k?.dataUsedMb ?? undefined,
      });
    } else form.setFieldsValue({ carrier: CARRIERS[0] });
    setEditing({ device });
  };

  return (
    <PageContainer title="物联网卡信息">
      <DataTable<Device4gRow>
        queryKey={dmKeys.cards}
        fetchPage={dmApi.cards}
        params={{ projectId }}
        rowKey="id"
        exportUrl="/api/v1/device/card/export"
        exportCode="deviceCardInfoList:export"
        filters={[
          { name: 'keyword', label: '关键字', placeholder: '设备编号、名称或 ICCID', width: 220 },
          { name: 'hasCard', label: '物联网卡', kind: 'select', width: 120, options: [{ value: '1', label: '已登记' }, { value: '0', label: '未登记' }] },
          { name: 'packageLimitDays', label: '套餐到期', kind: 'select', width: 150, options: [0, 7, 30, 90].map((n) => ({ value: n, label: n === 0 ? '已到期' : `${n} 天内到期` })) },
        ]}
        toolbar={<Can code="deviceCardInfoList:btn_edit"><Button type="primary" icon={<PlusOutlined />} onClick={() => open()}>登记物联网卡</Button></Can>}
        scrollX={1400}
        columns={[
          { title: '设备编号', dataIndex: 'deviceCode', width: 200, fixed: 'left' },
          { title: '设备名称', dataIndex: 'deviceName', width: 170, ellipsis: true },
          { title: '类型', dataIndex: 'typeName', width: 130 },
          { title: '位置', dataIndex: 'areaPath', width: 170, render: (v: string, d) => (d.areaId === null ? <Tag>库存</Tag> : v || '项目') },
          { title: '状态', key: 'online', width: 80, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
          { title: 'ICCID', key: 'iccid', width: 200, render: (_, d) => d.card?.iccid ?? <Tag>未登记</Tag> },
          { title: '运营商', key: 'carrier', width: 90, render: (_, d) => d.card?.carrier ?? '—' },
          { title: '激活日期', key: 'act', width: 110, render: (_, d) => (d.card?.activatedAt ? formatDateTime(d.card.activatedAt, 'YYYY-MM-DD') : '—') },
          { title: '套餐到期', key: 'end', width: 200, render: (_, d) => expiry(d.card) },
          { title: '流量使用', key: 'data', width: 190, render: (_, d) => usage(d.card) },
          {
            title: '操作', key: 'op', width: 140, fixed: 'right', render: (_, d) => (
              <Space size={2}>
                <Can code="deviceCardInfoList:btn_edit"><Button type="link" size="small" onClick={() => open(d)}>{d.card ? '编辑' : '登记'}</Button></Can>
                {d.card && (
                  <DeleteLink code="deviceCardInfoList:btn_del" label="解绑" title={`确定解绑「${d.deviceName}」的物联网卡？`} description={`ICCID ${d.card.iccid}`} onConfirm={() => unbind.mutate(d.deviceCode)} />
                )}
              </Space>
            ),
          },
        ]}
      />

      <FormModal title={editing?.device ? `物联网卡：${editing.device.deviceName}` : '登记物联网卡'} open={editing !== null} onClose={() => setEditing(null)}
        form={form} name="cardForm" saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="deviceCode" label="设备" required rules={[zodRule(c.deviceCode)]}>
          <Select disabled={!!editing?.device} showSearch={{ optionFilterProp: 'label' }} loading={bare.isLoading} placeholder="选择未登记物联网卡的 4G 设备"
            options={(editing?.device ? [editing.device] : bare.data?.rows ?? []).map((d) => ({ value: d.deviceCode, label: `${d.deviceName}（${d.deviceCode}）` }))}
            notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="项目中没有未登记物联网卡的 4G 设备" />} />
        </Form.Item>
        <Form.Item name="iccid" label="ICCID" required rules={[zodRule(c.iccid)]}><Input maxLength={20} placeholder="19～20 位，卡面上的编号" /></Form.Item>
        <Form.Item name="carrier" label="运营商" required rules={[zodRule(c.carrier)]}><Select options={CARRIERS.map((x) => ({ value: x, label: x }))} /></Form.Item>
        <Space size="large">
          <Form.Item name="activatedAt" label="激活日期"><DatePicker /></Form.Item>
          <Form.Item name="packageEnd" label="套餐到期"><DatePicker /></Form.Item>
        </Space>
        <Space size="large">
          <Form.Item name="dataLimitMb" label="套餐流量（MB）" rules={[zodRule(c.dataLimitMb)]}><InputNumber min={0} style={{ width: 180 }} /></Form.Item>
          <Form.Item name="dataUsedMb" label="已用流量（MB）" rules={[zodRule(c.dataUsedMb)]}><InputNumber min={0} style={{ width: 180 }} /></Form.Item>
        </Space>
      </FormModal>
    </PageContainer>
  );
}

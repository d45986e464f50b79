import { useState } from 'react';
import { App, Badge, Button, Form, Input, Popconfirm, Select, Space, Tabs, Tag } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DEVICE_TYPES, deviceCodeSchema, deviceUpdateBody, type DeviceCredentials, type DeviceImportResult, type DeviceRow, type StorageRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { zodRule } from '../../../lib/form';
import { formatDateTime } from '../../../lib/time';
import { AppModal, Can } from '../../../lib/ui';
import { ImportDialog } from '../../../components/import-dialog';
import { dmApi, dmKeys, saveCredentialsCsv, type Created } from '../api';
import { deviceApi, deviceKeys, useDeviceTypes } from '../../devices';
import { AreaPicker, CredentialsView } from '../components/device-placement';
import { QrButton } from '../components/qr-button';

const u = deviceUpdateBody.shape;
type Dialog = { kind: 'add' | 'storageAdd' } | { kind: 'edit' | 'replace' | 'rename'; device: DeviceRow } | { kind: 'move'; ids: number[] } | { kind: 'import' | 'gatewayImport' } | null;

/** deviceList_n (设备列表): the project's devices — create, edit, move, spare, replace, re-issue secrets, delete, import; and its storage. */
export default function DeviceList() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [creds, setCreds] = useState<DeviceCredentials | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [form] = Form.useForm();
  const types = useDeviceTypes(projectId);
  // lists, counts, details and the storage tab all change with a device
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: deviceKeys.all }), qc.invalidateQueries({ queryKey: dmKeys.storage })]);
  const finish = (msg: string) => (r?: unknown) => {
    message.success(msg);
    setDialog(null);
    const c = (r as Created | undefined)?.credentials;
    if (c) setCreds(c);
    void refresh();
  };
  const save = useMutation({
    mutationFn: async (v: Record<string, unknown>) => {
      if (!dialog) return;
      const { areaId, deviceType, newDeviceCode, ...rest } = v;
      switch (dialog.kind) {
        case 'add': return dmApi.create(projectId!, Number(areaId), String(deviceType), rest);
        case 'storageAdd': return dmApi.addToStorage({ projectId, deviceType, ...rest });
        case 'edit': return dmApi.update(dialog.device.id, { ...rest, areaId });
        case 'rename': return dmApi.rename(dialog.device.id, String(rest.deviceName));
        case 'move': return dmApi.move(dialog.ids, Number(areaId));
        case 'replace': return dmApi.replace(dialog.device.deviceCode, String(newDeviceCode));
      }
    },
    onSuccess: (r) => finish('保存成功')(r),
  });
  const act = useMutation({
    mutationFn: ({ kind, d }: { kind: 'spare' | 'delete' | 'secret'; d: DeviceRow }): Promise<unknown> => (kind === 'spare' ? dmApi.backUp(d.id) : kind === 'delete' ? dmApi.remove(d.id) : dmApi.credentials(d.id)),
    onSuccess: (r, v) => {
      if (v.kind === 'secret') setCreds(r as DeviceCredentials);
      else message.success(v.kind === 'spare' ? '已转入库存' : '删除成功');
      void refresh();
    },
  });
  if (projectId === null) return <NoProject title="设备列表" />;
  const typeOptions = (types.data ?? []).map((t) => ({ value: t.code, label: t.name }));
  const allTypeOptions = DEVICE_TYPES.map((t) => ({ value: t.code, label: `${t.name}（${t.code}）` }));
  const open = (d: Dialog, values: Record<string, unknown> = {}) => { form.resetFields(); form.setFieldsValue(values); setDialog(d); };
  const status = (d: DeviceRow) => (d.online ? <Badge status="success" text="在线" /> : <Badge status="default" text="离线" />);
  const actions = (d: DeviceRow, inStorage = false) => (
    <Space size={2} wrap>
      <Can code="deviceList_n:btn_edit">
        <Button type="link" size="small" onClick={() => open({ kind: 'edit', device: d }, { deviceName: d.deviceName, areaId: d.areaId ?? undefined })}>{inStorage ? '安装' : '编辑'}</Button>
        {!inStorage && <Popconfirm title={`把「${d.deviceName}」转入库存？`} onConfirm={() => act.mutate({ kind: 'spare', d })}><Button type="link" size="small">转入库存</Button></Popconfirm>}
        {!inStorage && <Button type="link" size="small" onClick={() => open({ kind: 'replace', device: d })}>更换</Button>}
        <Popconfirm title="重新生成接入密钥？旧密钥立即失效" onConfirm={() => act.mutate({ kind: 'secret', d })}><Button type="link" size="small">密钥</Button></Popconfirm>
      </Can>
      <QrButton device={d} />
      <DeleteLink code="deviceList_n:btn_del" title={`确定删除「${d.deviceName}」？历史数据保留`} onConfirm={() => act.mutate({ kind: 'delete', d })} />
    </Space>
  );
  const kind = dialog?.kind;
  const title = { add: '新增设备', storageAdd: '登记库存设备', edit: '编辑设备', rename: '修改名称', move: '批量移动', replace: '更换设备' } as const;

  return (
    <PageContainer title="设备列表">
      <Tabs items={[
        {
          key: 'devices', label: '设备', children: (
            <DataTable<DeviceRow>
              queryKey={deviceKeys.list('admin')}
              fetchPage={deviceApi.list}
              params={{ projectId }}
              rowKey="id"
              rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
              filters={[
                { name: 'keyword', label: '关键字', placeholder: '设备编号或名称' },
                { name: 'deviceType', label: '类型', kind: 'select', options: typeOptions, width: 200 },
                { name: 'online', label: '在线', kind: 'select', options: [{ value: '1', label: '在线' }, { value: '0', label: '离线' }], width: 120 },
              ]}
              toolbar={(
                <Space>
                  <Can code="deviceList_n:btn_edit"><Button disabled={!selected.length} onClick={() => open({ kind: 'move', ids: selected })}>批量移动（{selected.length}）</Button></Can>
                  <Can code="deviceList_n:btn_add">
                    <Button icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'gatewayImport' })}>导入网关</Button>
                    <Button icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'import' })}>导入设备</Button>
                    <Button type="primary" icon={<PlusOutlined />} onClick={() => open({ kind: 'add' })}>新增设备</Button>
                  </Can>
                </Space>
              )}
              scrollX={1250}
              columns={[
                { title: '设备编号', dataIndex: 'deviceCode', width: 170 },
                { title: '设备名称', dataIndex: 'deviceName', width: 180, ellipsis: true },
                { title: '类型', dataIndex: 'typeName', width: 150 },
                { title: '位置', dataIndex: 'areaPath', width: 200, render: (v, d) => (d.areaId === null ? <Tag>库存</Tag> : v || '项目') },
                { title: '状态', key: 'online', width: 90, render: (_, d) => status(d) },
                { title: '启用', dataIndex: 'enabled', width: 70, render: (v) => (v ? '是' : <Tag color="red">停用</Tag>) },
                { title: '最后上报', dataIndex: 'lastReportAt', width: 170, render: (v) => (v ? formatDateTime(v) : '—') },
                { title: '操作', key: 'op', width: 370, fixed: 'right', render: (_, d) => actions(d) },
              ]}
            />
          ),
        },
        {
          key: 'storage', label: '设备库存', children: (
            <DataTable<StorageRow>
              queryKey={dmKeys.storage}
              fetchPage={dmApi.storage}
              params={{ projectId }}
              rowKey="id"
              exportUrl="/api/v1/deviceStorage/projectAllDeviceStorageExport"
              exportCode="deviceList_n:export"
              filters={[
                { name: 'deviceName', label: '设备名称' },
                { name: 'packageLimitDays', label: '套餐到期', kind: 'select', width: 160, options: [7, 15, 30, 90].map((n) => ({ value: n, label: `${n} 天内到期` })) },
              ]}
              toolbar={<Can code="deviceList_n:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => open({ kind: 'storageAdd' })}>登记库存设备</Button></Can>}
              scrollX={1150}
              columns={[
                { title: '设备编号', dataIndex: 'deviceCode', width: 170 },
                { title: '设备名称', dataIndex: 'deviceName', width: 180, ellipsis: true },
                { title: '类型', dataIndex: 'typeName', width: 150 },
                { title: '状态', dataIndex: 'inStorage', width: 90, render: (v, d) => (v ? <Tag color="orange">库存</Tag> : <Tag color="blue">{d.areaPath || '已安装'}</Tag>) },
                { title: 'ICCID', key: 'iccid', width: 200, render: (_, d) => d.card?.iccid ?? '—' },
                { title: '套餐剩余', key: 'days', width: 100, render: (_, d) => (d.card?.packageDaysLeft === null || d.card === null ? '—' : d.card.packageDaysLeft < 0 ? <Tag color="red">已到期</Tag> : `${d.card.packageDaysLeft} 天`) },
                {
                  title: '操作', key: 'op', width: 240, fixed: 'right', render: (_, d) => (
                    <Space size={2}>
                      <Can code="deviceList_n:btn_edit"><Button type="link" size="small" onClick={() => open({ kind: 'rename', device: d }, { deviceName: d.deviceName })}>改名</Button></Can>
                      {actions(d, d.inStorage)}
                    </Space>
                  ),
                },
              ]}
            />
          ),
        },
      ]} />

      <FormModal title={kind && kind in title ? title[kind as keyof typeof title] : ''} open={!!kind && kind in title} onClose={() => setDialog(null)}
        form={form} name="deviceForm" saving={save.isPending} onSave={(v) => save.mutate(v)}>
        {(kind === 'add' || kind === 'storageAdd') && (
          <Form.Item name="deviceType" label="设备类型" required rules={[{ required: true, message: '请选择设备类型' }]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={allTypeOptions} placeholder="选择设备类型" />
          </Form.Item>
        )}
        {(kind === 'add' || kind === 'edit' || kind === 'move') && (
          <Form.Item name="areaId" label="安装位置" required={kind !== 'edit'} rules={kind !== 'edit' ? [{ required: true, message: '请选择安装位置' }] : []}>
            <AreaPicker projectId={projectId} />
          </Form.Item>
        )}
        {(kind === 'add' || kind === 'storageAdd') && (
          <Form.Item name="deviceCode" label="设备编号" rules={[zodRule(deviceCodeSchema.optional())]} extra="设备上的编码；留空则自动生成。库存中的编号会直接安装到所选位置">
            <Input maxLength={64} />
          </Form.Item>
        )}
        {(kind === 'add' || kind === 'storageAdd' || kind === 'edit' || kind === 'rename') && (
          <Form.Item name="deviceName" label="设备名称" required={kind === 'rename'} rules={[zodRule(kind === 'rename' ? u.deviceName.unwrap() : u.deviceName)]}><Input maxLength={64} /></Form.Item>
        )}
        {kind === 'replace' && (
          <Form.Item name="newDeviceCode" label={`新设备编号（替换 ${dialog && 'device' in dialog ? dialog.device.deviceCode : ''}）`} required rules={[zodRule(deviceCodeSchema)]}
            extra="房间、历史数据与计费账户转给新设备；新设备来自库存时，旧设备转入库存">
            <Input maxLength={64} />
          </Form.Item>
        )}
      </FormModal>

      <AppModal title="设备接入密钥" open={creds !== null} onCancel={() => setCreds(null)} footer={<Button type="primary" onClick={() => setCreds(null)}>我已保存</Button>}>
        {creds && <CredentialsView c={creds} />}
      </AppModal>

      {(['import', 'gatewayImport'] as const).map((k) => (
        <ImportDialog<DeviceImportResult> key={k} open={kind === k} title={k === 'import' ? '导入设备' : '导入网关'} modelType={k === 'import' ? 'areaDevice' : 'gateway'}
          onClose={() => setDialog(null)}
          upload={(file) => dmApi.importDevices(k === 'import' ? 'deviceimport' : 'gatewayimport', projectId, file)}
          describe={(r) => `导入成功：${r.created} 台，接入密钥清单已下载（只提供这一次）`}
          onDone={(r) => { saveCredentialsCsv(r.credentials, '设备接入密钥.csv'); void refresh(); }} />
      ))}
    </PageContainer>
  );
}

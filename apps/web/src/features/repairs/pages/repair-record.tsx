import { useEffect, useState } from 'react';
import { App, Button, Descriptions, Empty, Form, Image, Input, Popconfirm, Radio, Select, Skeleton, Space, Tag, Timeline, Typography, Upload } from 'antd';
import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  REPAIR_MOVES, REPAIR_PHOTO_MAX_BYTES, REPAIR_PHOTO_MAX_COUNT, REPAIR_PRIORITY, REPAIR_STATUS,
  type RepairDetailDto, type RepairDto, type RepairPhotoDto, type RepairPriority, type RepairStatus,
} from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { formatDateTime } from '../../../lib/time';
import { Can, useCan } from '../../../lib/ui';
import { repairApi, repairKeys } from '../api';

const STATUS_COLOR: Record<RepairStatus, string> = { pending: 'orange', processing: 'blue', done: 'green', closed: 'default' };
const PRIORITY_COLOR: Record<RepairPriority, string> = { low: 'default', normal: 'blue', high: 'orange', urgent: 'red' };
const options = <T extends string>(labels: Record<T, string>) => (Object.entries(labels) as [T, string][]).map(([value, label]) => ({ value, label }));

type ReportValues = { target: 'device' | 'location'; deviceId?: number; location?: string; fault: string; reporter: string; phone?: string; priority: RepairPriority };

/** The project's devices, searched on the server by name or code. */
function DeviceSelect({ projectId, value, onChange, id }: { projectId: number; value?: number; onChange?: (v: number | undefined) => void; id?: string }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: repairKeys.devices(projectId, keyword), queryFn: () => repairApi.devices(projectId, keyword || undefined) });
  return (
    <Select id={id} value={value} onChange={onChange} allowClear showSearch filterOption={false} onSearch={setKeyword} loading={q.isFetching}
      placeholder="输入设备名称或编号搜索" notFoundContent={q.isFetching ? '加载中…' : '没有匹配的设备'}
      options={(q.data ?? []).map((d) => ({ value: d.id, label: `${d.name}（${d.code}）${d.areaPath ? ` · ${d.areaPath}` : ''}` }))} />
  );
}

/** 登记维修 / 修改: a device of the project or a location in words, the fault, who reported it, the priority. */
function ReportDialog({ projectId, editing, open, onClose, onDone }: { projectId: number; editing: RepairDto | null; open: boolean; onClose: () => void; onDone: (r: RepairDetailDto) => void }) {
  const [form] = Form.useForm<ReportValues>();
  const target = Form.useWatch('target', form);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        target: editing.deviceId ? 'device' : 'location', deviceId: editing.deviceId ?? undefined, location: editing.location ?? undefined, fault: editing.fault,
        reporter: editing.reporter, phone: editing.phone ?? undefined, priority: editing.priority,
      });
    }
  }, [open, editing, form]);
  const save = useMutation({
    mutationFn: (v: ReportValues) => {
      const body = {
        deviceId: v.target === 'device' ? v.deviceId ?? null : null, location: v.location?.trim() || undefined, fault: v.fault, reporter: v.reporter, phone: v.phone || undefined, priority: v.priority,
      };
      return editing ? repairApi.update(editing.id, body) : repairApi.create({ projectId, ...body });
    },
    onSuccess: onDone,
  });
  return (
    <FormModal<ReportValues> title={editing ? `修改维修记录 ${editing.repairNo}` : '登记维修'} open={open} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)} width={560}>
      <Form.Item name="target" label="报修对象" initialValue="device">
        <Radio.Group options={[{ value: 'device', label: '项目设备' }, { value: 'location', label: '位置（无对应设备）' }]} />
      </Form.Item>
      {target !== 'location' && (
        <Form.Item name="deviceId" label="设备" rules={[{ required: true, message: '请选择设备' }]}><DeviceSelect projectId={projectId} /></Form.Item>
      )}
      <Form.Item name="location" label={target === 'location' ? '位置' : '位置补充'} rules={[{ required: target === 'location', whitespace: true, message: '请填写位置' }, { max: 200, message: '最多 200 个字符' }]}>
        <Input maxLength={200} placeholder="如 1 号楼 3 层 301 室" />
      </Form.Item>
      <Form.Item name="fault" label="故障描述" rules={[{ required: true, whitespace: true, message: '请填写故障描述' }]}>
        <Input.TextArea maxLength={500} showCount rows={3} placeholder="现象、发生时间等" />
      </Form.Item>
      <Space.Compact block>
        <Form.Item name="reporter" label="报修人" rules={[{ required: true, whitespace: true, message: '请填写报修人' }]} style={{ flex: 1, marginRight: 12 }}><Input maxLength={60} /></Form.Item>
        <Form.Item name="phone" label="联系电话" rules={[{ pattern: /^[0-9+\-() ]{0,20}$/, message: '联系电话格式不正确' }]} style={{ flex: 1 }}><Input maxLength={20} /></Form.Item>
      </Space.Compact>
      <Form.Item name="priority" label="优先级" initialValue="normal"><Radio.Group optionType="button" options={options(REPAIR_PRIORITY)} /></Form.Item>
    </FormModal>
  );
}

type MoveKind = 'assign' | 'finish' | 'close';

/** 派单 / 完成 / 关闭: one small form each; 关闭 needs a reason. */
function MoveDialog({ repair, kind, onClose, onDone }: { repair: RepairDto; kind: MoveKind | null; onClose: () => void; onDone: (r: RepairDetailDto) => void }) {
  const [form] = Form.useForm<{ assigneeId?: number; note?: string; result?: string }>();
  const people = useQuery({ queryKey: repairKeys.assignees(repair.projectId), queryFn: () => repairApi.assignees(repair.projectId), enabled: kind === 'assign' });
  useEffect(() => {
    if (kind) form.resetFields();
  }, [kind, form]);
  const run = useMutation({
    mutationFn: (v: { assigneeId?: number; note?: string; result?: string }) =>
      kind === 'assign' ? repairApi.assign(repair.id, { assigneeId: v.assigneeId!, note: v.note || undefined })
        : kind === 'finish' ? repairApi.finish(repair.id, v.result || undefined) : repairApi.close(repair.id, v.result ?? ''),
    onSuccess: onDone,
  });
  const title = kind === 'assign' ? (repair.status === 'processing' ? '改派' : '派单') : kind === 'finish' ? '维修完成' : '关闭维修记录';
  return (
    <FormModal title={`${title} · ${repair.repairNo}`} open={!!kind} onClose={onClose} form={form} saving={run.isPending} onSave={(v) => run.mutate(v)} okText={title.replace('维修记录', '')} width={480}>
      {kind === 'assign' && (
        <>
          <Form.Item name="assigneeId" label="维修人员" rules={[{ required: true, message: '请选择维修人员' }]}>
            <Select showSearch optionFilterProp="label" loading={people.isLoading} placeholder="本项目可见的用户"
              options={(people.data ?? []).filter((p) => p.id !== repair.assigneeId).map((p) => ({ value: p.id, label: `${p.name}（${p.username}）` }))} />
          </Form.Item>
          <Form.Item name="note" label="备注"><Input maxLength={500} placeholder="如 今天下午上门" /></Form.Item>
        </>
      )}
      {kind === 'finish' && <Form.Item name="result" label="处理结果"><Input.TextArea maxLength={500} showCount rows={3} placeholder="更换了什么、复测结果" /></Form.Item>}
      {kind === 'close' && (
        <Form.Item name="result" label="关闭原因" rules={[{ required: true, whitespace: true, message: '请填写关闭原因' }]} extra="关闭后不能再派单或修改">
          <Input.TextArea maxLength={500} showCount rows={3} placeholder="如 重复报修、非设备故障" />
        </Form.Item>
      )}
    </FormModal>
  );
}

/** A photo thumbnail: fetched with the token (an <img> cannot carry it), previewed large on click. */
function Photo({ p, canEdit, onRemove }: { p: RepairPhotoDto; canEdit: boolean; onRemove: () => void }) {
  const blob = useQuery({ queryKey: repairKeys.photo(p.id), queryFn: () => repairApi.photo(p.id), staleTime: Infinity });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob.data) return;
    const u = URL.createObjectURL(blob.data);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob.data]);
  return (
    <div style={{ position: 'relative', width: 96 }} data-testid="repair-photo">
      {url ? <Image src={url} width={96} height={96} style={{ objectFit: 'cover', borderRadius: 4 }} alt={p.name} /> : <Skeleton.Image active style={{ width: 96, height: 96 }} />}
      <Typography.Text ellipsis style={{ fontSize: 12, display: 'block' }} title={p.name}>{p.name}</Typography.Text>
      {canEdit && (
        <Popconfirm title="删除这张照片？" onConfirm={onRemove}>
          <Button size="small" danger type="text" icon={<DeleteOutlined />} aria-label="删除照片" style={{ position: 'absolute', top: 0, right: 0, background: 'rgba(255,255,255,0.8)' }} />
        </Popconfirm>
      )}
    </div>
  );
}

/** One record: the report, its photos (upload jpg/png ≤ 5 MB, ≤ 9), and the timeline of who did what. */
function RepairDrawer({ id, onClose, onMove }: { id: number | null; onClose: () => void; onMove: (r: RepairDto, k: MoveKind) => void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const canEdit = useCan('repairRecord:btn_edit');
  const q = useQuery({ queryKey: repairKeys.detail(id), queryFn: () => repairApi.get(id!), enabled: id !== null });
  const r = q.data;
  const refresh = () => qc.invalidateQueries({ queryKey: repairKeys.all });
  const remove = useMutation({ mutationFn: (photoId: number) => repairApi.removePhoto(photoId), onSuccess: () => { message.success('照片已删除'); void refresh(); } });
  const [uploading, setUploading] = useState(0);
  return (
    <AppDrawer title={r ? `维修记录 ${r.repairNo}` : '维修记录'} open={id !== null} onClose={onClose} width={640} extra={r && canEdit && REPAIR_MOVES[r.status].length > 0 ? (
      <Space>
        {REPAIR_MOVES[r.status].map((k) => (
          <Button key={k} type={k === 'finish' ? 'primary' : 'default'} danger={k === 'close'} onClick={() => onMove(r, k)}>
            {k === 'assign' ? (r.status === 'processing' ? '改派' : '派单') : k === 'finish' ? '完成' : '关闭'}
          </Button>
        ))}
      </Space>
    ) : null}>
      {!r ? <Skeleton active /> : (
        <>
          <Descriptions size="small" column={2} bordered items={[
            { label: '状态', children: <Tag color={STATUS_COLOR[r.status]}>{REPAIR_STATUS[r.status]}</Tag> },
            { label: '优先级', children: <Tag color={PRIORITY_COLOR[r.priority]}>{REPAIR_PRIORITY[r.priority]}</Tag> },
            { label: '设备', children: r.deviceName ? `${r.deviceName}（${r.deviceCode}）` : '—', span: 2 },
            { label: '位置', children: r.location ?? '—', span: 2 },
            { label: '故障描述', children: r.fault, span: 2 },
            { label: '报修人', children: r.reporter },
            { label: '联系电话', children: r.phone ?? '—' },
            { label: '维修人员', children: r.assigneeName ?? '未派单' },
            { label: '报修时间', children: formatDateTime(r.createdAt) },
            { label: r.status === 'closed' ? '关闭原因' : '处理结果', children: r.result ?? '—', span: 2 },
          ]} />
          <Typography.Title level={5} style={{ marginTop: 20 }}>照片（{r.photos.length}/{REPAIR_PHOTO_MAX_COUNT}）</Typography.Title>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-start' }}>
            <Image.PreviewGroup>
              {r.photos.map((p) => <Photo key={p.id} p={p} canEdit={canEdit} onRemove={() => remove.mutate(p.id)} />)}
            </Image.PreviewGroup>
            {r.photos.length === 0 && !canEdit && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有照片" />}
            {canEdit && r.photos.length < REPAIR_PHOTO_MAX_COUNT && (
              <Upload accept="image/jpeg,image/png" multiple showUploadList={false}
                beforeUpload={(file, list) => {
                  if (!['image/jpeg', 'image/png'].includes(file.type)) { message.error(`${file.name}：只能上传 JPG 或 PNG 图片`); return Upload.LIST_IGNORE; }
                  if (file.size > REPAIR_PHOTO_MAX_BYTES) { message.error(`${file.name}：超过 5 MB`); return Upload.LIST_IGNORE; }
                  if (r.photos.length + list.indexOf(file) >= REPAIR_PHOTO_MAX_COUNT) { message.error(`每条维修记录最多 ${REPAIR_PHOTO_MAX_COUNT} 张照片`); return Upload.LIST_IGNORE; }
                  return true;
                }}
                customRequest={({ file, onSuccess, onError }) => {
                  setUploading((n) => n + 1);
                  repairApi.uploadPhoto(r.id, file as File).then((x) => { onSuccess?.(x); void refresh(); }, (e) => onError?.(e as Error)).finally(() => setUploading((n) => n - 1));
                }}>
                <Button icon={<UploadOutlined />} loading={uploading > 0} style={{ width: 96, height: 96, flexDirection: 'column' }}>上传照片</Button>
              </Upload>
            )}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>JPG 或 PNG，每张不超过 5 MB，每条最多 {REPAIR_PHOTO_MAX_COUNT} 张</Typography.Text>
          <Typography.Title level={5} style={{ marginTop: 20 }}>处理过程</Typography.Title>
          <Timeline data-testid="repair-timeline" items={r.events.map((e) => ({
            color: e.toStatus === 'done' ? 'green' : e.toStatus === 'closed' ? 'gray' : e.action === 'create' ? 'orange' : 'blue',
            children: (
              <div>
                <b>{e.actionLabel}</b>
                {e.toStatus && e.fromStatus && <Typography.Text type="secondary">（{REPAIR_STATUS[e.fromStatus]} → {REPAIR_STATUS[e.toStatus]}）</Typography.Text>}
                <div>{e.note}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>{e.actorName ?? '系统'} · {formatDateTime(e.at)}</Typography.Text>
              </div>
            ),
          }))} />
        </>
      )}
    </AppDrawer>
  );
}

/**
 * repairRecord (维修记录): repair work orders of the selected project — log one (a device or a location), assign it to
 * a person, finish or close it (with a reason), photos and the timeline in the drawer; filters and export on top.
 */
export default function RepairRecordPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const canEdit = useCan('repairRecord:btn_edit');
  const [editing, setEditing] = useState<RepairDto | null | 'new'>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [moving, setMoving] = useState<{ r: RepairDto; k: MoveKind } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: repairKeys.all });
  const remove = useChange((ids: number[]) => repairApi.remove(ids), { done: '删除成功', refresh });
  if (projectId === null) return <NoProject title="维修记录" />;
  const moveLabel = (r: RepairDto, k: MoveKind) => (k === 'assign' ? (r.status === 'processing' ? '改派' : '派单') : k === 'finish' ? '完成' : '关闭');
  return (
    <PageContainer title="维修记录">
      <DataTable<RepairDto>
        queryKey={repairKeys.list(projectId)}
        fetchPage={repairApi.list}
        params={{ projectId }}
        rowKey="id"
        exportUrl="/api/v1/repair/export"
        exportCode="repairRecord:export"
        filters={[
          { name: 'status', label: '状态', kind: 'select', width: 120, options: options(REPAIR_STATUS) },
          { name: 'priority', label: '优先级', kind: 'select', width: 110, options: options(REPAIR_PRIORITY) },
          { name: 'time', label: '报修时间', kind: 'dateRange', rangeNames: ['startTime', 'endTime'] },
          { name: 'keyword', label: '关键字', placeholder: '故障、位置、设备、报修人', width: 200 },
        ]}
        toolbar={<Can code="repairRecord:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button></Can>}
        onRow={(r) => ({ onDoubleClick: () => setOpen(r.id) })}
        columns={[
          { title: '维修单号', dataIndex: 'repairNo', width: 150, render: (v: string, r) => <a onClick={() => setOpen(r.id)}>{v}</a> },
          { title: '设备 / 位置', key: 'target', width: 220, render: (_, r) => (r.deviceName ? <>{r.deviceName}<Typography.Text type="secondary">（{r.deviceCode}）</Typography.Text>{r.location ? <div>{r.location}</div> : null}</> : r.location) },
          { title: '故障描述', dataIndex: 'fault', width: 240, ellipsis: true },
          { title: '报修人', dataIndex: 'reporter', width: 100 },
          { title: '联系电话', dataIndex: 'phone', width: 130 },
          { title: '优先级', dataIndex: 'priority', width: 80, render: (v: RepairPriority) => <Tag color={PRIORITY_COLOR[v]}>{REPAIR_PRIORITY[v]}</Tag> },
          { title: '状态', dataIndex: 'status', width: 90, render: (v: RepairStatus) => <Tag color={STATUS_COLOR[v]}>{REPAIR_STATUS[v]}</Tag> },
          { title: '维修人员', dataIndex: 'assigneeName', width: 110 },
          { title: '照片', dataIndex: 'photoCount', width: 60, align: 'right' },
          { title: '报修时间', dataIndex: 'createdAt', width: 160, render: (v: number) => formatDateTime(v) },
          {
            title: '操作', key: 'op', width: 240, fixed: 'right', render: (_, r) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setOpen(r.id)}>详情</Button>
                {canEdit && REPAIR_MOVES[r.status].map((k) => (
                  <Button key={k} type="link" size="small" danger={k === 'close'} onClick={() => setMoving({ r, k })}>{moveLabel(r, k)}</Button>
                ))}
                {canEdit && REPAIR_MOVES[r.status].length > 0 && <Button type="link" size="small" onClick={() => setEditing(r)}>修改</Button>}
                <DeleteLink code="repairRecord:btn_del" title={`删除维修记录 ${r.repairNo}（连同照片与处理过程）？`} onConfirm={() => remove.mutate([r.id])} />
              </Space>
            ),
          },
        ]}
        scrollX={1500}
      />
      <ReportDialog projectId={projectId} editing={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} onDone={(r) => {
        message.success(editing === 'new' ? `已登记 ${r.repairNo}` : '修改成功');
        setEditing(null);
        void refresh();
      }} />
      <RepairDrawer id={open} onClose={() => setOpen(null)} onMove={(r, k) => setMoving({ r, k })} />
      {moving && (
        <MoveDialog repair={moving.r} kind={moving.k} onClose={() => setMoving(null)} onDone={(r) => {
          message.success(`${moveLabel(moving.r, moving.k)}成功：${REPAIR_STATUS[r.status]}`);
          setMoving(null);
          void refresh();
        }} />
      )}
    </PageContainer>
  );
}

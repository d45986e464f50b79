import { useState } from 'react';
import { App, Badge, Button, Form, Input, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EXCEPTION_KINDS, type ExceptionKind, type ExceptionRow } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { FormModal } from '../../../components/form-modal';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { monitoringApi, monitoringKeys } from '../api';

const KIND_COLORS: Record<ExceptionKind, string> = { backwards: 'magenta', jump: 'orange', frozen: 'geekblue', range: 'red' };
const kindOptions = Object.entries(EXCEPTION_KINDS).map(([value, label]) => ({ value, label }));

/** exceptiondata (异常数据): implausible readings of the project's devices, handled by an operator with a note. */
export default function ExceptionDataPage() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="异常数据" />;
  return <PageContainer title="异常数据"><ExceptionList projectId={projectId} /></PageContainer>;
}

function ExceptionList({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [selected, setSelected] = useState<number[]>([]);
  const [handling, setHandling] = useState<ExceptionRow[] | null>(null);
  const [form] = Form.useForm<{ note: string }>();
  const devices = useQuery({ queryKey: [...monitoringKeys.exceptions(projectId), 'devices'], queryFn: () => monitoringApi.exceptionDevices(projectId) });
  const handle = useMutation({
    mutationFn: (v: { ids: number[]; note: string }) => monitoringApi.handleExceptions(v.ids, v.note),
    onSuccess: (res) => {
      message.success(`已处理 ${res.updated} 条`);
      setHandling(null);
      setSelected([]);
      void qc.invalidateQueries({ queryKey: monitoringKeys.exceptions(projectId) });
      void qc.invalidateQueries({ queryKey: monitoringKeys.faults(projectId) });
      void qc.invalidateQueries({ queryKey: monitoringKeys.overview(projectId) });
    },
  });
  const open = (rows: ExceptionRow[]) => {
    form.resetFields();
    setHandling(rows);
  };
  const openDevices = devices.data ?? [];

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }} data-testid="exception-devices">
        {openDevices.length
          ? <>未处理异常的设备 <b>{openDevices.length}</b> 台：{openDevices.slice(0, 6).map((d) => `${d.deviceName}（${d.kinds.join('、')}）`).join('；')}{openDevices.length > 6 ? ' …' : ''}</>
          : '所有异常数据均已处理'}
      </Typography.Paragraph>
      <DataTable<ExceptionRow>
        queryKey={monitoringKeys.exceptions(projectId)}
        fetchPage={monitoringApi.exceptions}
        params={{ projectId }}
        rowKey="id"
        filters={[
          { name: 'kind', label: '异常类型', kind: 'select', width: 150, options: kindOptions },
          { name: 'handled', label: '处理状态', kind: 'select', width: 130, options: [{ value: '0', label: '未处理' }, { value: '1', label: '已处理' }] },
          { name: 'keyword', label: '设备', placeholder: '设备名称或编号' },
          { name: 'reading', label: '读数日期', kind: 'dateRange' },
        ]}
        exportUrl="/api/v1/device/exceptiondata/export"
        exportCode="exceptiondata:export"
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]), getCheckboxProps: (x) => ({ disabled: x.handled }) }}
        toolbar={(
          <Can code="exceptiondata:btn_edit">
            <Button type="primary" disabled={!selected.length} onClick={() => open([])}>处理所选（{selected.length}）</Button>
          </Can>
        )}
        columns={[
          { title: '读数时间', dataIndex: 'readingAt', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '设备', key: 'device', width: 200, render: (_, x) => <span>{x.deviceName}<br /><Typography.Text type="secondary">{x.deviceCode}</Typography.Text></span> },
          { title: '设备类型', dataIndex: 'typeName', width: 140 },
          { title: '字段', dataIndex: 'fieldLabel', width: 100 },
          { title: '异常类型', dataIndex: 'kind', width: 120, render: (_, x) => <Tag color={KIND_COLORS[x.kind]}>{x.kindLabel}</Tag> },
          { title: '读数', dataIndex: 'value', width: 120 },
          { title: '前一读数', dataIndex: 'previous', width: 120 },
          { title: '说明', dataIndex: 'description', width: 280 },
          {
            title: '处理', key: 'handled', width: 200, render: (_, x) => (x.handled
              ? <span><Badge status="success" text={`${x.handledBy ?? ''} ${x.handledAt ? formatDateTime(x.handledAt, 'MM-DD HH:mm') : ''}`} />{x.note ? <><br /><Typography.Text type="secondary">{x.note}</Typography.Text></> : null}</span>
              : <Badge status="warning" text="未处理" />),
          },
          {
            title: '操作', key: 'op', width: 90, fixed: 'right', render: (_, x) => (x.handled ? null : (
              <Can code="exceptiondata:btn_edit"><Button type="link" size="small" onClick={() => open([x])}>处理</Button></Can>
            )),
          },
        ]}
        scrollX={1500}
      />
      <FormModal open={!!handling} title={`处理异常数据（${handling?.length || selected.length} 条）`} onClose={() => setHandling(null)} form={form} saving={handle.isPending}
        onSave={(v) => handling && handle.mutate({ ids: handling.length ? handling.map((x) => x.id) : selected, note: v.note.trim() })} okText="标记已处理">
        {handling?.length === 1 && (
          <Typography.Paragraph>
            <Space direction="vertical" size={2}>
              <span>{handling[0].deviceName} · {handling[0].fieldLabel} · <Tag color={KIND_COLORS[handling[0].kind]}>{handling[0].kindLabel}</Tag></span>
              <Typography.Text type="secondary">{handling[0].description}</Typography.Text>
            </Space>
          </Typography.Paragraph>
        )}
        <Form.Item name="note" label="处理说明" rules={[{ required: true, whitespace: true, message: '请填写处理说明' }, { max: 200, message: '处理说明最多 200 个字符' }]}>
          <Input.TextArea rows={3} placeholder="例如：现场核实为抄表误差，已校准" maxLength={200} showCount />
        </Form.Item>
      </FormModal>
    </>
  );
}

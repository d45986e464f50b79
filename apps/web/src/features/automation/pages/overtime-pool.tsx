import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Input, InputNumber, Progress, Select, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OvertimePoolBody, OvertimePoolRow } from '@kelvin/contracts/automation';
import { DataTable } from '../../../components/data-table';
import { FormModal, DeleteLink } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChart } from '../../../components/use-chart';
import { useChange } from '../../../lib/mutations';
import { dayjs, formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { automationApi, automationKeys } from '../api';
import { AreaSelect } from '../components/targets';

echarts.use([BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** Who may change approved hours. */
const POOL_EDIT_CODE = 'overtimePool_n:btn_edit';

/** Hours used and left per room, stacked: the pool's size is the bar's length, over-use shows in red. */
function PoolChart({ rows }: { rows: OvertimePoolRow[] }) {
  const ref = useChart(() => ({
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 120, right: 24, top: 32, bottom: 24 },
    yAxis: { type: 'category', data: rows.map((r) => `${r.areaName}${r.accountName ? `（${r.accountName}）` : ''}`), inverse: true },
    xAxis: { type: 'value', name: '小时' },
    series: [
      { name: '已用', type: 'bar', stack: 'h', data: rows.map((r) => Math.min(r.usedHours, r.approvedHours)), itemStyle: { color: '#1677ff' } },
      { name: '剩余', type: 'bar', stack: 'h', data: rows.map((r) => Math.max(r.leftHours, 0)), itemStyle: { color: '#d9d9d9' } },
      { name: '超出', type: 'bar', stack: 'h', data: rows.map((r) => Math.max(r.usedHours - r.approvedHours, 0)), itemStyle: { color: '#ff4d4f' } },
    ],
  }), [rows]);
  return <div ref={ref} style={{ height: Math.max(160, rows.length * 32 + 64), width: '100%' }} data-testid="overtime-chart" />;
}

interface PoolValues { programId: number; areaId: number[]; accountName?: string; approvedHours: number }

/**
 * /device/overtimePool_n (超时池): per room (or account) and month, the approved overtime hours over the standard
 * hours of a week program, what AC use outside those hours has drawn, and what is left — a bar per room.
 */
export default function OvertimePoolPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const [month, setMonth] = useState(() => dayjs().format('YYYY-MM'));
  const [editing, setEditing] = useState<OvertimePoolRow | 'new' | null>(null);
  const [form] = Form.useForm<PoolValues>();
  const chart = useQuery({
    queryKey: [...automationKeys.overtime(projectId), 'chart', month],
    queryFn: () => automationApi.overtime({ projectId: projectId!, month, pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null,
  });
  const programs = useQuery({
    queryKey: [...automationKeys.programs(projectId), 'all'],
    queryFn: () => automationApi.programs({ projectId: projectId!, pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null && editing !== null,
  });
  const save = useChange(
    (v: PoolValues) => {
      const body: OvertimePoolBody = { projectId: projectId!, programId: v.programId, areaId: v.areaId[0]!, accountName: v.accountName?.trim() || null, month, approvedHours: v.approvedHours };
      return automationApi.saveOvertime(body, editing !== 'new' && editing ? editing.id : undefined);
    },
    { done: '保存成功', refresh: () => qc.invalidateQueries({ queryKey: automationKeys.overtime(projectId) }), then: () => setEditing(null) },
  );
  const remove = useChange((id: number) => automationApi.removeOvertime([id]), { done: '删除成功', refresh: () => qc.invalidateQueries({ queryKey: automationKeys.overtime(projectId) }) });
  const open = (r: OvertimePoolRow | 'new') => {
    form.resetFields();
    if (r !== 'new') form.setFieldsValue({ programId: r.programId, areaId: [r.areaId], accountName: r.accountName ?? '', approvedHours: r.approvedHours });
    setEditing(r);
  };

  if (projectId === null) return <NoProject title="超时池" />;
  const rows = chart.data?.rows ?? [];
  return (
    <PageContainer title="超时池" extra={(
      <Space>
        <Typography.Text>月份</Typography.Text>
        <DatePicker picker="month" allowClear={false} value={dayjs(`${month}-01`)} onChange={(d) => d && setMonth(d.format('YYYY-MM'))} aria-label="月份" />
      </Space>
    )}>
      <Typography.Text type="secondary">标准时间由周程序的开关机时段决定；标准时间以外的空调使用从批准的加班时长中扣减。</Typography.Text>
      <Card size="small" title={`${month} 各房间加班时长`} loading={chart.isLoading}>
        {rows.length ? <PoolChart rows={rows} /> : <Empty description="本月还没有批准的加班时长" />}
      </Card>
      <DataTable<OvertimePoolRow>
        queryKey={[...automationKeys.overtime(projectId), 'list']}
        fetchPage={automationApi.overtime}
        params={{ projectId, month }}
        rowKey="id"
        exportUrl="/api/v1/overtimepool/export"
        exportCode="overtimePool_n:export"
        toolbar={<Can code={POOL_EDIT_CODE}><Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>新增</Button></Can>}
        columns={[
          { title: '房间', dataIndex: 'areaName', width: 160 },
          { title: '户名', dataIndex: 'accountName', width: 120 },
          { title: '标准时间（周程序）', key: 'program', width: 200, render: (_, r) => <span>{r.programName}<br /><Typography.Text type="secondary">每周 {r.standardHoursPerWeek} 小时</Typography.Text></span> },
          { title: '批准（小时）', dataIndex: 'approvedHours', width: 110 },
          { title: '已用（小时）', dataIndex: 'usedHours', width: 110 },
          { title: '剩余（小时）', dataIndex: 'leftHours', width: 110, render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : undefined}>{v}</Typography.Text> },
          {
            title: '使用', key: 'bar', width: 180, render: (_, r) => (
              <Progress size="small" percent={r.approvedHours ? Math.round((r.usedHours / r.approvedHours) * 100) : r.usedHours ? 100 : 0}
                status={r.usedHours > r.approvedHours ? 'exception' : 'normal'} />
            ),
          },
          { title: '更新', dataIndex: 'updatedAt', width: 150, render: (v: number) => formatDateTime(v, 'MM-DD HH:mm') },
          {
            title: '操作', key: 'op', width: 120, fixed: 'right', render: (_, r) => (
              <Space size={0}>
                <Can code={POOL_EDIT_CODE}><Button type="link" size="small" onClick={() => open(r)}>编辑</Button></Can>
                <DeleteLink code={POOL_EDIT_CODE} title={`删除「${r.areaName}」${r.month} 的加班时长？`} onConfirm={() => remove.mutate(r.id)} />
              </Space>
            ),
          },
        ]}
        scrollX={1200}
      />
      <FormModal<PoolValues> title={`${editing === 'new' ? '新增' : '编辑'}加班时长（${month}）`} open={!!editing} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="areaId" label="房间" rules={[{ required: true, message: '请选择房间' }]}>
          <AreaSelect projectId={projectId} single />
        </Form.Item>
        <Form.Item name="accountName" label="户名" rules={[{ max: 40, message: '最多 40 个字符' }]}><Input maxLength={40} placeholder="可选，如租户名称" /></Form.Item>
        <Form.Item name="programId" label="标准时间取自周程序" rules={[{ required: true, message: '请选择周程序' }]}>
          <Select loading={programs.isLoading} options={(programs.data?.rows ?? []).map((p) => ({ value: p.id, label: `${p.name}（${p.typeName}）` }))} notFoundContent="请先在「编程设置」中新建周程序" />
        </Form.Item>
        <Form.Item name="approvedHours" label="批准加班时长（小时）" rules={[{ required: true, message: '请输入批准时长' }]}>
          <InputNumber min={0} max={744} step={0.5} style={{ width: 200 }} />
        </Form.Item>
      </FormModal>
    </PageContainer>
  );
}

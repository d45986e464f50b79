import { useState } from 'react';
import { Button, Card, Empty, Popconfirm, Space, Spin, Switch, Tabs, Tag, Typography } from 'antd';
import { PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WeekProgramBody, WeekProgramRow } from '@kelvin/contracts/automation';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts/device-registry';
import { DataTable, updatedColumn } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { toastSuccess } from '../../../lib/feedback';
import { dayjs, formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { PROGRAM_MENU, automationApi, automationKeys } from '../api';
import { ProgramFormModal, useProgrammableTypes, type ProgramTarget } from '../components/program-form';
import { RunHistoryDrawer } from '../components/run-history';
import { AreaSelect, DeviceSelect } from '../components/targets';
import { WeekTimeline } from '../components/week-timeline';
import { weekOf } from '../week-model';

const today = () => (dayjs().day() + 6) % 7;

function ProgramTimeline({ p, compact }: { p: WeekProgramRow; compact?: boolean }) {
  const def = DEVICE_TYPE_BY_CODE.get(p.deviceType);
  return def ? <WeekTimeline def={def} week={weekOf(p.slots)} today={today()} compact={compact} /> : null;
}

/** The body that saves a program as it is (the enable switch changes one field of it). */
function programBodyOf(p: WeekProgramRow): WeekProgramBody {
  return {
    projectId: p.projectId, name: p.name, deviceType: p.deviceType, slots: p.slots, holidayRule: p.holidayRule, deviceIds: p.deviceIds,
    groupIds: p.groupIds, areaIds: p.areaIds, schemeId: p.schemeId, missedPolicy: p.missedPolicy, enabled: p.enabled,
  };
}

function targetsText(p: WeekProgramRow): string {
  const parts = [p.deviceIds.length && `${p.deviceIds.length} 台设备`, p.groupIds.length && `${p.groupIds.length} 个分组`, p.areaIds.length && `${p.areaIds.length} 个区域`].filter(Boolean);
  return `${parts.join('、') || '未选择'}（共 ${p.deviceCount} 台）`;
}

/** The programs that apply to one device or one area (spec §7.3 weekprogram/listbydevice, listbyarea). */
function AppliedPrograms({ projectId }: { projectId: number }) {
  const [by, setBy] = useState<'device' | 'area'>('device');
  const [id, setId] = useState<number | null>(null);
  const q = useQuery({
    queryKey: automationKeys.programsBy(by, id),
    queryFn: () => (by === 'device' ? automationApi.programsByDevice(id!) : automationApi.programsByArea(id!)),
    enabled: id !== null,
  });
  return (
    <Card size="small" variant="borderless">
      <Space wrap style={{ marginBottom: 12 }}>
        <Tabs activeKey={by} onChange={(k) => { setBy(k as 'device' | 'area'); setId(null); }} items={[{ key: 'device', label: '按设备' }, { key: 'area', label: '按区域' }]} />
        <div style={{ width: 420 }}>
          {by === 'device'
            ? <DeviceSelect projectId={projectId} value={id ? [id] : []} onChange={(ids) => setId(ids.at(-1) ?? null)} placeholder="搜索设备编号或名称" />
            : <AreaSelect projectId={projectId} value={id ? [id] : []} onChange={(ids) => setId(ids.at(-1) ?? null)} />}
        </div>
      </Space>
      {id === null ? <Empty description={by === 'device' ? '选择一台设备，查看对它生效的周程序' : '选择楼栋、楼层或房间，查看其中设备的周程序'} />
        : q.isLoading ? <Spin /> : !q.data?.length ? <Empty description="没有周程序作用于它" /> : (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="applied-programs">
            {q.data.map((p) => (
              <Card key={p.id} size="small" title={<Space>{p.name}<Tag>{p.typeName}</Tag>{!p.enabled && <Tag>已停用</Tag>}{p.memory && <Tag color="purple">设备内存执行</Tag>}</Space>}
                extra={<Typography.Text type="secondary">节假日：{p.holidayRuleLabel}</Typography.Text>}>
                <ProgramTimeline p={p} />
              </Card>
            ))}
          </Space>
        )}
    </Card>
  );
}

/**
 * /device/deviceprogram (编程设置) and /businessSys/thermostatprogram/:projectId? (温控器编程, thermostats only):
 * week programs of the project — list with each week's timeline, the editor, 立即执行, 执行记录 — and the programs
 * that apply to a device or an area.
 */
export default function WeekProgramsPage() {
  const { pathname } = useLocation();
  const thermostatsOnly = pathname.includes('/thermostatprogram');
  const title = thermostatsOnly ? '温控器编程' : '编程设置';
  // the server accepts either screen's codes for week programs; buttons follow the screen the user is on
  const menu = thermostatsOnly ? PROGRAM_MENU : 'deviceprogram';
  const projectId = useProjectId();
  const qc = useQueryClient();
  const types = useProgrammableTypes(projectId, thermostatsOnly);
  const [editing, setEditing] = useState<ProgramTarget | null>(null);
  const [history, setHistory] = useState<WeekProgramRow | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: automationKeys.all });
  const toggle = useMutation({
    mutationFn: (p: WeekProgramRow) => automationApi.updateProgram(p.id, { ...programBodyOf(p), enabled: !p.enabled }),
    onSuccess: (_r, p) => {
      toastSuccess(p.enabled ? '已停用' : '已启用');
      void refresh();
    },
  });
  const remove = useChange((id: number) => automationApi.removePrograms([id]), { done: '删除成功', refresh });
  const execute = useMutation({
    mutationFn: (p: WeekProgramRow) => automationApi.executeProgram(p.id),
    onSuccess: (_r, p) => {
      toastSuccess(p.memory ? '已下发程序到设备，结果见执行记录' : '已按当前时段下发，结果见执行记录');
      setHistory(p);
    },
  });

  if (projectId === null) return <NoProject title={title} />;
  const list = (
    <DataTable<WeekProgramRow>
      queryKey={automationKeys.programs(projectId)}
      fetchPage={automationApi.programs}
      params={{ projectId }}
      rowKey="id"
      exportUrl="/api/v1/weekprogram/export"
      exportCode={`${menu}:export`}
      filters={[
        { name: 'keyword', label: '程序名称', placeholder: '输入名称' },
        { name: 'deviceType', label: '设备类型', kind: 'select', width: 160, options: types.list.map((t) => ({ value: t.code, label: t.name })) },
      ]}
      toolbar={<Can code={`${menu}:btn_add`}><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'program', row: null })}>新增</Button></Can>}
      expandable={{ expandedRowRender: (p) => <div style={{ maxWidth: 900 }}><ProgramTimeline p={p} /></div> }}
      columns={[
        { title: '程序名称', dataIndex: 'name', width: 180, render: (v: string, p) => <span>{v}{p.memory && <><br /><Tag color="purple">设备内存执行</Tag></>}</span> },
        { title: '设备类型', dataIndex: 'typeName', width: 120 },
        { title: '一周概览', key: 'week', width: 320, render: (_, p) => <div style={{ width: 300 }}><ProgramTimeline p={p} compact /></div> },
        { title: '执行对象', key: 'targets', width: 200, render: (_, p) => targetsText(p) },
        { title: '节假日', dataIndex: 'holidayRuleLabel', width: 130 },
        { title: '下次执行', dataIndex: 'nextRunAt', width: 150, render: (v: number | null, p) => (p.memory ? '设备自行执行' : v ? formatDateTime(v, 'MM-DD HH:mm') : '—') },
        {
          title: '启用', dataIndex: 'enabled', width: 70,
          render: (_, p) => (
            <Can code={`${menu}:btn_edit`} fallback={p.enabled ? '是' : '否'}>
              <Switch size="small" checked={p.enabled} loading={toggle.isPending && toggle.variables?.id === p.id} onChange={() => toggle.mutate(p)} aria-label="启用" />
            </Can>
          ),
        },
        updatedColumn(),
        {
          title: '操作', key: 'op', width: 250, fixed: 'right', render: (_, p) => (
            <Space size={0} wrap>
              <Can code={`${menu}:btn_edit`}>
                <Button type="link" size="small" onClick={() => setEditing({ kind: 'program', row: p })}>编辑</Button>
                <Popconfirm title={`现在执行「${p.name}」？`} description={p.memory ? '把程序整体下发到设备' : '按当前时刻生效的时段向设备下发'} onConfirm={() => execute.mutate(p)}>
                  <Button type="link" size="small" icon={<PlayCircleOutlined />}>立即执行</Button>
                </Popconfirm>
              </Can>
              <Button type="link" size="small" onClick={() => setHistory(p)}>执行记录</Button>
              <DeleteLink code={`${menu}:btn_del`} title={`确定删除周程序「${p.name}」？`} description="设备保持当前状态，不再按此程序执行" onConfirm={() => remove.mutate(p.id)} />
            </Space>
          ),
        },
      ]}
      scrollX={1500}
    />
  );
  return (
    <PageContainer title={title}>
      <Tabs items={[
        { key: 'list', label: '周程序', children: list },
        { key: 'applied', label: '按设备 / 区域查看', children: <AppliedPrograms projectId={projectId} /> },
      ]} />
      <ProgramFormModal projectId={projectId} target={editing} thermostatsOnly={thermostatsOnly} onClose={() => setEditing(null)} />
      <RunHistoryDrawer owner="program" id={history?.id ?? null} title={history?.name ?? ''} deviceType={history?.deviceType ?? null} menuCode={menu} onClose={() => setHistory(null)} />
    </PageContainer>
  );
}

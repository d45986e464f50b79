import { useState } from 'react';
import { Alert, Badge, Button, Empty, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { HOLIDAY_RULES, type HolidayRule, type TaskRow, type WeekProgramRow } from '@kelvin/contracts/automation';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts/device-registry';
import type { DeviceRow } from '@kelvin/contracts/device';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable } from '../../../components/data-table';
import { useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { deviceApi, deviceKeys, useLiveDevices } from '../../devices';
import { automationApi, automationKeys } from '../api';
import { TaskPage } from '../components/task-page';
import { WeekTimeline } from '../components/week-timeline';
import { decodeProgram, sameProgram } from '../week-model';

/** The devices of a memory task's type and the program each reports back, against the program pushed. */
function ReportedPrograms({ projectId, task, program, onClose }: { projectId: number; task: TaskRow | null; program: WeekProgramRow | undefined; onClose(): void }) {
  useLiveDevices(task ? projectId : null);
  const deviceType = program?.deviceType ?? task?.deviceType ?? undefined;
  const def = deviceType ? DEVICE_TYPE_BY_CODE.get(deviceType) : undefined;
  const field = def?.programField ?? null;
  return (
    <AppDrawer open={!!task} title={`设备中的程序 · ${task?.name ?? ''}`} size={900} onClose={onClose} destroyOnHidden>
      {!program || !def || !field ? <Empty description="找不到要下发的周程序" /> : (
        <>
          <Alert type="info" showIcon style={{ marginBottom: 12 }}
            message={`下发的程序「${program.name}」，节假日${HOLIDAY_RULES[program.holidayRule]}；设备收到后回报其内存中的程序，与下发的一致即为生效。`} />
          <DataTable<DeviceRow>
            queryKey={deviceKeys.list(`memory-${task!.id}`)}
            fetchPage={deviceApi.list}
            params={{ projectId, deviceType }}
            rowKey="id"
            defaultPageSize={10}
            expandable={{
              expandedRowRender: (d) => {
                const decoded = decodeProgram(d.fields[field]);
                return decoded
                  ? <div style={{ maxWidth: 760 }}><Typography.Text type="secondary">设备回报的程序（节假日：{HOLIDAY_RULES[decoded.holidayRule as HolidayRule] ?? decoded.holidayRule ?? '—'}）</Typography.Text><WeekTimeline def={def} week={decoded.week} compact /></div>
                  : <Typography.Text type="secondary">设备还没有回报程序</Typography.Text>;
              },
            }}
            columns={[
              { title: '设备', key: 'device', width: 220, render: (_, d) => <span>{d.deviceName}<br /><Typography.Text type="secondary">{d.deviceCode}</Typography.Text></span> },
              { title: '位置', dataIndex: 'areaPath', width: 180 },
              { title: '在线', key: 'online', width: 80, render: (_, d) => <Badge status={d.online ? 'success' : 'default'} text={d.online ? '在线' : '离线'} /> },
              {
                title: '设备中的程序', key: 'program', width: 140, render: (_, d) => {
                  const s = sameProgram(d.fields[field], program.slots);
                  return s === 'same' ? <Tag color="green">与下发一致</Tag> : s === 'different' ? <Tag color="orange">与下发不同</Tag> : <Tag>未回报</Tag>;
                },
              },
              { title: '最后上报', dataIndex: 'lastReportAt', width: 165, render: (v: number | null) => (v ? formatDateTime(v) : '从未上报') },
            ]}
            scrollX={800}
          />
        </>
      )}
    </AppDrawer>
  );
}

/** /device/memoryScheduledTask (记忆周期任务): week programs pushed to memory-program devices, with the program each reports. */
export default function MemoryScheduledTask() {
  const projectId = useProjectId();
  const [viewing, setViewing] = useState<TaskRow | null>(null);
  const programs = useQuery({
    queryKey: [...automationKeys.programs(projectId), 'memory'],
    queryFn: () => automationApi.programs({ projectId: projectId!, pageNo: 1, pageSize: 200 }),
    enabled: projectId !== null,
  });
  const programOf = (t: TaskRow) => programs.data?.rows.find((p) => p.id === t.programId);
  return (
    <>
      <TaskPage
        kind="memory"
        extraColumns={[{ title: '周程序', key: 'program', width: 160, render: (t) => programOf(t)?.name ?? (t.programId ? `#${t.programId}` : '—') }]}
        extraActions={(t) => <Button type="link" size="small" onClick={() => setViewing(t)}>设备程序</Button>}
      />
      {projectId !== null && <ReportedPrograms projectId={projectId} task={viewing} program={viewing ? programOf(viewing) : undefined} onClose={() => setViewing(null)} />}
    </>
  );
}

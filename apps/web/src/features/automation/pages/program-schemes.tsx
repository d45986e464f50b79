import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { ProgramSchemeRow } from '@kelvin/contracts/automation';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts/device-registry';
import { DataTable, updatedColumn } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { DeleteLink } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { Can } from '../../../lib/ui';
import { PROGRAM_MENU, automationApi, automationKeys } from '../api';
import { ProgramFormModal, type ProgramTarget } from '../components/program-form';
import { WeekTimeline } from '../components/week-timeline';
import { weekOf } from '../week-model';

function SchemeTimeline({ s, compact }: { s: ProgramSchemeRow; compact?: boolean }) {
  const def = DEVICE_TYPE_BY_CODE.get(s.deviceType);
  return def ? <WeekTimeline def={def} week={weekOf(s.slots)} compact={compact} /> : null;
}

/**
 * /businessSys/programscheme (编程方案): reusable week templates of the project, edited with the same week editor;
 * 应用到… makes a week program from a scheme (a copy: later edits of the scheme do not change it).
 */
export default function ProgramSchemesPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<ProgramTarget | null>(null);
  const remove = useChange((id: number) => automationApi.removeSchemes([id]), { done: '删除成功', refresh: () => qc.invalidateQueries({ queryKey: automationKeys.all }) });
  if (projectId === null) return <NoProject title="编程方案" />;
  return (
    <PageContainer title="编程方案">
      <Typography.Text type="secondary">编程方案是可重复使用的一周作息模板；「应用到…」用方案新建一个周程序并选择执行对象。</Typography.Text>
      <DataTable<ProgramSchemeRow>
        queryKey={automationKeys.schemes(projectId)}
        fetchPage={automationApi.schemes}
        params={{ projectId }}
        rowKey="id"
        filters={[{ name: 'keyword', label: '方案名称', placeholder: '输入名称' }]}
        toolbar={<Can code="programscheme:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'scheme', row: null })}>新增</Button></Can>}
        expandable={{ expandedRowRender: (s) => <div style={{ maxWidth: 900 }}><SchemeTimeline s={s} /></div> }}
        columns={[
          { title: '方案名称', dataIndex: 'name', width: 180 },
          { title: '设备类型', dataIndex: 'typeName', width: 130 },
          { title: '一周概览', key: 'week', width: 320, render: (_, s) => <div style={{ width: 300 }}><SchemeTimeline s={s} compact /></div> },
          { title: '时段', key: 'slots', width: 80, render: (_, s) => s.slots.length },
          { title: '备注', dataIndex: 'remark', width: 180 },
          updatedColumn(),
          {
            title: '操作', key: 'op', width: 200, fixed: 'right', render: (_, s) => (
              <Space size={0}>
                <Can code="programscheme:btn_edit"><Button type="link" size="small" onClick={() => setEditing({ kind: 'scheme', row: s })}>编辑</Button></Can>
                <Can code={`${PROGRAM_MENU}:btn_add`}><Button type="link" size="small" onClick={() => setEditing({ kind: 'program', row: null, from: s })}>应用到…</Button></Can>
                <DeleteLink code="programscheme:btn_del" title={`确定删除方案「${s.name}」？`} description="由它新建的周程序不受影响" onConfirm={() => remove.mutate(s.id)} />
              </Space>
            ),
          },
        ]}
        scrollX={1200}
      />
      <ProgramFormModal projectId={projectId} target={editing} onClose={() => setEditing(null)} />
    </PageContainer>
  );
}

import { useState } from 'react';
import { App, Button, Form, Progress, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PROJECT_TYPES } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { DeleteLink } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { AppModal, Can, PreventClickButton } from '../../../lib/ui';
import { useProject } from '../../../stores/project';
import { projectApi, projectKeys, type ProjectRow } from '../api';
import { ProjectForm } from '../components/project-form';


/** projectlist (项目列表): every visible project with its figures; 新增, 编辑 (projectedit), 删除, 导出. */
export default function ProjectList() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const [form] = Form.useForm();
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: projectKeys.list });
    await useProject.getState().loadProjects(); // the top bar's project list
  };
  const create = useMutation({
    mutationFn: (v: Record<string, unknown>) => projectApi.create(v),
    onSuccess: async () => { message.success('新建成功'); setAdding(false); await refresh(); },
  });
  const remove = useChange((id: number) => projectApi.remove(id), { done: '删除成功', refresh });
  const open = (p: ProjectRow, path: string) => {
    void useProject.getState().choose(p.id);
    navigate(path);
  };

  return (
    <PageContainer title="项目列表">
      <DataTable<ProjectRow>
        queryKey={projectKeys.list}
        fetchPage={projectApi.page}
        rowKey="id"
        exportUrl="/api/v1/area/project/export"
        exportCode="projectlist:export"
        filters={[
          { name: 'name', label: '项目名称' },
          { name: 'projectType', label: '项目类型', kind: 'select', width: 220, options: PROJECT_TYPES.map((t) => ({ value: t.code, label: `${t.code} ${t.name}` })) },
        ]}
        toolbar={<Can code="projectlist:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => { form.resetFields(); setAdding(true); }}>新增项目</Button></Can>}
        scrollX={1200}
        columns={[
          { title: '项目名称', dataIndex: 'name', width: 180, render: (v, p) => <a onClick={() => open(p, '/project/projectview')}>{v}</a> },
          { title: '别名', dataIndex: 'alias', width: 120, render: (v) => v ?? '—' },
          { title: '项目类型', dataIndex: 'projectType', width: 220, render: (v, p) => (v ? <span><Tag>{v}</Tag>{p.projectTypeName}</span> : '—') },
          { title: '地址', dataIndex: 'address', ellipsis: true, render: (v) => v ?? '—' },
          { title: '楼栋', key: 'b', width: 70, render: (_, p) => p.counts.buildings },
          { title: '房间', key: 'r', width: 70, render: (_, p) => p.counts.rooms },
          { title: '面积(m²)', key: 'a', width: 100, render: (_, p) => p.counts.floorArea },
          { title: '设备', key: 'd', width: 70, render: (_, p) => p.counts.devices ?? '—' },
          { title: '在线率', key: 'o', width: 130, render: (_, p) => (p.counts.onlineRate === null ? '—' : <Progress percent={p.counts.onlineRate} size="small" />) },
          {
            title: '操作', key: 'op', width: 170, fixed: 'right', render: (_, p) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => open(p, '/project/projectview')}>详情</Button>
                <Can code="projectedit:btn_edit"><Button type="link" size="small" onClick={() => open(p, '/project/projectedit')}>编辑</Button></Can>
                <DeleteLink code="projectlist:btn_del" title={`确定删除项目「${p.name}」？`} onConfirm={() => remove.mutate(p.id)} />
              </Space>
            ),
          },
        ]}
      />
      <AppModal title="新增项目" open={adding} width={720} onCancel={() => setAdding(false)} footer={[
        <Button key="c" onClick={() => setAdding(false)}>取消</Button>,
        <PreventClickButton key="ok" type="primary" loading={create.isPending} onClick={() => form.validateFields().then((v) => create.mutate(v), () => undefined)}>保存</PreventClickButton>,
      ]}>
        <ProjectForm form={form} />
      </AppModal>
    </PageContainer>
  );
}

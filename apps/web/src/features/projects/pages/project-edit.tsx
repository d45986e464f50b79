import { useEffect, useState } from 'react';
import { App, Button, Card, Form, Input, Space, Spin } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectAliasBody } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { Can, PreventClickButton } from '../../../lib/ui';
import { useProject } from '../../../stores/project';
import { areaApi, areaKeys, projectApi, projectKeys } from '../api';
import { ProjectForm } from '../components/project-form';
import { ProjectFiles } from '../components/project-files';

/** projectedit (项目编辑): the selected project's details, its alias and its files. */
export default function ProjectEdit() {
  const projectId = useProjectId();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm();
  const [alias, setAlias] = useState('');
  const detail = useQuery({ queryKey: areaKeys.detail(projectId), queryFn: () => areaApi.get(projectId!), enabled: projectId !== null });
  const aliasQuery = useQuery({ queryKey: projectKeys.alias(projectId), queryFn: () => projectApi.alias(projectId!), enabled: projectId !== null });
  useEffect(() => {
    if (detail.data) form.setFieldsValue({ ...detail.data, regionId: detail.data.parentId });
  }, [detail.data, form]);
  useEffect(() => setAlias(aliasQuery.data?.alias ?? ''), [aliasQuery.data]);
  const save = useMutation({
    mutationFn: (v: Record<string, unknown>) => projectApi.update(projectId!, v),
    onSuccess: async () => {
      message.success('保存成功');
      await qc.invalidateQueries({ queryKey: areaKeys.all });
      await qc.invalidateQueries({ queryKey: projectKeys.all });
      await useProject.getState().loadProjects();
    },
  });
  const saveAlias = useMutation({
    mutationFn: () => projectApi.setAlias(projectId!, alias.trim()),
    onSuccess: () => { message.success('别名已保存'); qc.invalidateQueries({ queryKey: projectKeys.alias(projectId) }); },
  });
  if (projectId === null) return <NoProject title="项目编辑" />;
  return (
    <PageContainer title={`项目编辑：${detail.data?.name ?? ''}`}>
      <Spin spinning={detail.isLoading}>
        <Card size="small" title="项目信息" extra={<Can code="projectedit:btn_edit"><PreventClickButton type="primary" loading={save.isPending} onClick={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}>保存</PreventClickButton></Can>}>
          <ProjectForm form={form} />
        </Card>
      </Spin>
      <Card size="small" title="项目别名" extra={<span style={{ color: '#888' }}>大屏与报表标题使用别名；留空则使用项目名称</span>}>
        <Space>
          <Form.Item style={{ margin: 0 }} validateStatus={projectAliasBody.shape.alias.safeParse(alias).success ? undefined : 'error'}
            help={projectAliasBody.shape.alias.safeParse(alias).error?.issues[0]?.message}>
            <Input value={alias} onChange={(e) => setAlias(e.target.value)} maxLength={100} style={{ width: 320 }} placeholder="例如：金融中心" />
          </Form.Item>
          <Can code="projectedit:btn_edit"><Button onClick={() => saveAlias.mutate()} loading={saveAlias.isPending} disabled={!projectAliasBody.safeParse({ alias }).success}>保存别名</Button></Can>
        </Space>
      </Card>
      <ProjectFiles projectId={projectId} />
    </PageContainer>
  );
}

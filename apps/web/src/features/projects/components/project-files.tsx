import { App, Button, Card, Space, Table, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROJECT_FILE_MAX_BYTES, type ProjectFile } from '@kelvin/contracts';
import { DeleteLink } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { formatDateTime } from '../../../lib/time';
import { Can } from '../../../lib/ui';
import { projectApi, projectKeys } from '../api';

const size = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/** Project files (drawings, contracts …): list and download; upload and delete with projectview:btn_edit. */
export function ProjectFiles({ projectId }: { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const key = projectKeys.files(projectId);
  const files = useQuery({ queryKey: key, queryFn: () => projectApi.files(projectId) });
  const upload = useMutation({
    mutationFn: (file: File) => projectApi.upload(projectId, file),
    onSuccess: () => { message.success('上传成功'); qc.invalidateQueries({ queryKey: key }); },
  });
  const remove = useChange((id: number) => projectApi.removeFile(id), { done: '删除成功', refresh: () => qc.invalidateQueries({ queryKey: key }) });
  return (
    <Card size="small" title="项目文件" extra={(
      <Can code="projectview:btn_edit">
        <Upload showUploadList={false} beforeUpload={(f) => {
          if (f.size > PROJECT_FILE_MAX_BYTES) message.error('文件超过 20 MB');
          else upload.mutate(f);
          return false;
        }}>
          <Button icon={<UploadOutlined />} loading={upload.isPending}>上传文件</Button>
        </Upload>
      </Can>
    )}>
      <Table<ProjectFile> size="small" rowKey="id" loading={files.isLoading} dataSource={files.data ?? []} pagination={false}
        locale={{ emptyText: '暂无文件' }}
        columns={[
          { title: '文件名', dataIndex: 'name', ellipsis: true },
          { title: '大小', dataIndex: 'size', width: 100, render: size },
          { title: '上传人', dataIndex: 'uploadedBy', width: 120, render: (v) => v ?? '—' },
          { title: '上传时间', dataIndex: 'createdAt', width: 170, render: (v) => formatDateTime(v) },
          {
            title: '操作', key: 'op', width: 140, render: (_, f) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => projectApi.downloadFile(f).catch(() => {})}>下载</Button>
                <DeleteLink code="projectview:btn_edit" title={`确定删除「${f.name}」？`} onConfirm={() => remove.mutate(f.id)} />
              </Space>
            ),
          },
        ]} />
    </Card>
  );
}

import { useState } from 'react';
import { Alert, Button, Progress, Space, Table, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportModelType, ImportRowError } from '@kelvin/contracts';
import { ApiError, download } from '../lib/http';
import { AppModal } from '../lib/ui';

/**
 * Excel import in one dialog: download the template, choose a file, upload with progress; a rejected file lists
 * every bad row with its number and reason (nothing was imported), a good one reports what it did.
 */
export function ImportDialog<R>(props: {
  open: boolean;
  title: string;
  /** the template of the area imports (downloadImportModel), or the screen's own template download */
  modelType?: ImportModelType;
  downloadTemplate?: () => Promise<void>;
  onClose: () => void;
  upload: (file: File) => Promise<R>;
  describe: (result: R) => string;
  onDone?: (result: R) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ msg: string; rows: ImportRowError[] } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const close = () => {
    setFile(null);
    setErrors(null);
    setDone(null);
    props.onClose();
  };
  const start = async () => {
    if (!file) return;
    setBusy(true);
    setErrors(null);
    setDone(null);
    try {
      const result = await props.upload(file);
      setDone(props.describe(result));
      props.onDone?.(result);
    } catch (e) {
      const err = e as ApiError;
      const rows = (err.data as { errors?: ImportRowError[] } | null)?.errors ?? [];
      setErrors({ msg: err.message, rows: rows.filter((r) => typeof r.row === 'number') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <AppModal title={props.title} open={props.open} onCancel={close} width={760} footer={[
      <Button key="tpl" icon={<DownloadOutlined />} onClick={() => (props.downloadTemplate?.() ?? download('/api/v1/area/downloadImportModel', { query: { modelType: props.modelType } })).catch(() => {})}>下载模板</Button>,
      <Button key="c" onClick={close}>关闭</Button>,
      <Button key="ok" type="primary" disabled={!file} loading={busy} onClick={start}>开始导入</Button>,
    ]}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Upload accept=".xlsx" maxCount={1} beforeUpload={(f) => { setFile(f); setErrors(null); setDone(null); return false; }}
          onRemove={() => setFile(null)} fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}>
          <Button icon={<UploadOutlined />}>选择 Excel 文件（.xlsx）</Button>
        </Upload>
        {busy && <Progress percent={99} status="active" showInfo={false} />}
        {busy && <span>正在上传并逐行校验，请稍候…</span>}
        {done && <Alert type="success" showIcon message={done} />}
        {errors && (
          <>
            <Alert type="error" showIcon message={errors.msg} />
            {errors.rows.length > 0 && (
              <Table size="small" rowKey={(r) => `${r.row}-${r.column}-${r.message}`} dataSource={errors.rows} pagination={{ pageSize: 8, showTotal: (n) => `共 ${n} 处错误` }}
                columns={[{ title: '行号', dataIndex: 'row', width: 80 }, { title: '列', dataIndex: 'column', width: 120, render: (v) => v ?? '—' }, { title: '原因', dataIndex: 'message' }]} />
            )}
          </>
        )}
      </Space>
    </AppModal>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Result, Select, Space, Spin, Typography } from 'antd';
import { ScanOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import type { AreaTreeNode, DeviceCredentials } from '@kelvin/contracts';
import { PreventClickButton } from '../../../lib/ui';
import { useSession } from '../../../stores/session';
import { AreaPicker, CredentialsView, dmApi } from '../../device-management';
import { useDeviceTypes } from '../../devices';
import { areaApi, areaKeys } from '../../projects';

type Values = { deviceCode: string; projectId: number; deviceType: string; areaId: number; deviceName?: string };

/** BarcodeDetector is in Chromium on Android and ChromeOS; elsewhere the code is typed. */
interface Detector { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> }
const detectorClass = () => (globalThis as unknown as { BarcodeDetector?: new (o?: { formats?: string[] }) => Detector }).BarcodeDetector;

/** The camera scanning a QR code or bar code until one is read. */
function Scanner({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stream: MediaStream | null = null;
    let stop = false;
    const Klass = detectorClass()!;
    const detector = new Klass({ formats: ['qr_code', 'code_128', 'ean_13', 'code_39'] });
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        video.current!.srcObject = stream;
        await video.current!.play();
        while (!stop) {
          const found = await detector.detect(video.current!).catch(() => []);
          const code = found[0]?.rawValue?.trim();
          if (code) return onCode(code);
          await new Promise((r) => setTimeout(r, 300));
        }
      } catch {
        setError('无法打开摄像头，请在浏览器设置中允许使用摄像头，或手动输入设备编号');
      }
    })();
    return () => {
      stop = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [onCode]);
  return (
    <Card size="small" style={{ marginBottom: 12 }} extra={<Button size="small" onClick={onClose}>关闭</Button>} title="扫描设备二维码">
      {error ? <Alert type="warning" showIcon message={error} /> : <video ref={video} muted playsInline style={{ width: '100%', borderRadius: 6, background: '#000' }} />}
    </Card>
  );
}

function projectsOf(nodes: AreaTreeNode[]): AreaTreeNode[] {
  return nodes.flatMap((n) => (n.level === 'project' ? [n] : projectsOf(n.children ?? [])));
}

/** /addDevice (phone): an installer binds a device to a room by its code and gets its MQTT credentials once. */
export default function AddDevicePage() {
  const session = useSession();
  const [form] = Form.useForm<Values>();
  const [scanning, setScanning] = useState(false);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState<{ name: string; code: string; credentials: DeviceCredentials | null } | null>(null);
  const projectId = Form.useWatch('projectId', form) ?? null;
  useEffect(() => {
    if (session.token && session.status === 'idle') void session.loadUser();
  }, [session]);
  // regions and projects only: the rooms come with the chosen project (AreaPicker)
  const tree = useQuery({ queryKey: areaKeys.regions, queryFn: areaApi.regions, enabled: !!session.token });
  const types = useDeviceTypes(projectId);
  const projects = projectsOf(tree.data ?? []);

  if (!session.token) return <Navigate to={`/login?redirect=${encodeURIComponent('/addDevice')}`} replace />;
  if (session.status !== 'ready') return <div style={{ padding: 48, textAlign: 'center' }}><Spin /></div>;
  if (!session.has('deviceList_n:btn_add')) {
    return <Result status="403" title="无添加设备权限" subTitle="扫码添加设备需要「设备列表 · 新增」权限，请联系管理员" extra={<Link to="/"><Button type="primary">返回首页</Button></Link>} />;
  }

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      const made = await dmApi.create(v.projectId, v.areaId, v.deviceType, { deviceCode: v.deviceCode.trim(), deviceName: v.deviceName?.trim() || undefined });
      setDone({ name: made.device.deviceName, code: made.device.deviceCode, credentials: made.credentials });
    } catch {
      // shown by the HTTP client (code taken, no permission …)
    } finally {
      setSaving(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', background: '#f5f7fa', padding: 12, boxSizing: 'border-box', maxWidth: 560, margin: '0 auto' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>扫码添加设备</Typography.Title>
        <Typography.Text type="secondary">{session.user?.name}</Typography.Text>
      </Space>
      {done ? (
        <Card>
          <Result status="success" style={{ padding: '8px 0' }} title="设备已绑定" subTitle={`${done.name}（${done.code}）`} />
          {done.credentials ? <CredentialsView c={done.credentials} /> : <Alert type="info" showIcon message="该设备从本项目库存安装，沿用原有的接入密钥" />}
          <Space style={{ marginTop: 16, width: '100%' }} direction="vertical">
            <Button type="primary" block onClick={() => { setDone(null); form.setFieldsValue({ deviceCode: '', deviceName: '' }); }}>继续添加</Button>
            <Link to="/"><Button block>进入控制台</Button></Link>
          </Space>
        </Card>
      ) : (
        <Card>
          {scanning && <Scanner onCode={(code) => { form.setFieldValue('deviceCode', code); setScanning(false); }} onClose={() => setScanning(false)} />}
          <Form form={form} layout="vertical" onFinish={submit} requiredMark="optional" autoComplete="off">
            <Form.Item label="设备编号 / IMEI" required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="deviceCode" noStyle rules={[{ required: true, whitespace: true, message: '请扫码或输入设备编号' }, { max: 64, message: '设备编号最多 64 个字符' }]}>
                  <Input placeholder="扫码或手动输入" aria-label="设备编号" />
                </Form.Item>
                {detectorClass() && <Button icon={<ScanOutlined />} onClick={() => setScanning(true)}>扫码</Button>}
              </Space.Compact>
            </Form.Item>
            <Form.Item name="projectId" label="项目" rules={[{ required: true, message: '请选择项目' }]}>
              <Select showSearch optionFilterProp="label" loading={tree.isLoading} placeholder="选择项目" aria-label="项目"
                options={projects.map((p) => ({ value: p.id, label: p.label }))}
                onChange={() => form.setFieldsValue({ deviceType: undefined, areaId: undefined })} />
            </Form.Item>
            <Form.Item name="deviceType" label="设备类型" rules={[{ required: true, message: '请选择设备类型' }]}>
              <Select disabled={!projectId} loading={types.isLoading} placeholder={projectId ? '选择设备类型' : '请先选择项目'} aria-label="设备类型"
                options={(types.data ?? []).map((t) => ({ value: t.code, label: t.name }))} />
            </Form.Item>
            <Form.Item name="areaId" label="安装位置（房间）" rules={[{ required: true, message: '请选择安装位置' }]}>
              {projectId ? <AreaPicker projectId={projectId} /> : <Select disabled placeholder="请先选择项目" />}
            </Form.Item>
            <Form.Item name="deviceName" label="设备名称" rules={[{ max: 64, message: '设备名称最多 64 个字符' }]}>
              <Input placeholder="选填，默认按编号命名" />
            </Form.Item>
            <PreventClickButton type="primary" htmlType="submit" block size="large" loading={saving}>绑定设备</PreventClickButton>
          </Form>
        </Card>
      )}
    </div>
  );
}

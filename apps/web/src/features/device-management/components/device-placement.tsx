import { Alert, Descriptions, Typography } from 'antd';
import type { DeviceCredentials } from '@kelvin/contracts';
import { AreaTreeSelect } from '../../projects';

const PLACES = ['project', 'building', 'floor', 'room'] as const;

/** The project's buildings / floors / rooms to place a device in (the project itself included). */
export function AreaPicker({ id, projectId, value, onChange }: { id?: string; projectId: number; value?: number; onChange?: (v: number | undefined) => void }) {
  return <AreaTreeSelect id={id} projectId={projectId} levels={PLACES} value={value} onChange={onChange} placeholder="选择楼栋 / 楼层 / 房间（可输入名称查找）" data-testid="device-area-picker" />;
}

/** Credentials shown once after creating a device or re-issuing its secret. */
export function CredentialsView({ c }: { c: DeviceCredentials }) {
  return (
    <>
      <Alert type="warning" showIcon message="接入密钥只显示这一次，请立即复制保存到设备中" style={{ marginBottom: 12 }} />
      <Descriptions size="small" column={1} bordered items={[
        { label: '设备编号', children: c.deviceCode },
        { label: 'Client ID / 用户名', children: c.username },
        { label: '密钥', children: <Typography.Text copyable code data-testid="device-secret">{c.password}</Typography.Text> },
        { label: '上报主题', children: c.topics.up },
        { label: '指令主题', children: c.topics.down },
        { label: '应答主题', children: c.topics.ack },
      ]} />
    </>
  );
}

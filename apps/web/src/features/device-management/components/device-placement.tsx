import { Alert, Descriptions, TreeSelect, Typography } from 'antd';
import type { AreaTreeNode, DeviceCredentials } from '@kelvin/contracts';
import { useAreaTree } from '../../projects';

/** The project's buildings / floors / rooms to place a device in (the project itself included). */
export function AreaPicker({ projectId, value, onChange }: { projectId: number; value?: number; onChange?: (v: number) => void }) {
  const tree = useAreaTree(projectId);
  const conv = (ns: AreaTreeNode[]): object[] => ns.map((n) => ({ value: n.id, title: n.label, children: conv(n.children) }));
  return <TreeSelect value={value} onChange={onChange} treeData={conv(tree.data ?? []) as never} treeDefaultExpandAll showSearch treeNodeFilterProp="title" placeholder="选择楼栋 / 楼层 / 房间" loading={tree.isLoading} />;
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

import { Button, Empty, Popconfirm, Table, Typography } from 'antd';
import { useErrorLog } from '../lib/error-log';
import { formatDateTime } from '../lib/time';
import { AppModal } from '../lib/ui';

/** The 'bug日志' dialog body: message, url and stack of every logged client error, newest first; clearable. */
export default function ErrorLogModal({ onClose }: { onClose: () => void }) {
  const errors = useErrorLog((s) => s.errors);
  const clear = useErrorLog((s) => s.clear);
  return (
    <AppModal
      title="bug日志"
      open
      width={960}
      onCancel={onClose}
      footer={[
        <Popconfirm key="clear" title="确定清空全部错误日志？" okText="清空" cancelText="取消" onConfirm={clear}>
          <Button danger disabled={!errors.length}>清空</Button>
        </Popconfirm>,
        <Button key="close" type="primary" onClick={onClose}>关闭</Button>,
      ]}
    >
      <Table
        size="small"
        rowKey={(r) => `${r.at}-${r.message}`}
        dataSource={errors}
        pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 条` }}
        locale={{ emptyText: <Empty description="暂无错误" /> }}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (v: number) => formatDateTime(v) },
          { title: '错误信息', dataIndex: 'message', width: 240 },
          {
            title: '追踪号', dataIndex: 'traceId', width: 270,
            render: (v?: string) => (v ? <Typography.Text copyable={{ text: v }} style={{ fontFamily: 'monospace', fontSize: 12 }} data-testid="error-trace-id">{v}</Typography.Text> : '—'),
          },
          { title: '页面地址', dataIndex: 'url', width: 220, ellipsis: true },
          { title: '堆栈', dataIndex: 'stack', render: (v: string) => <pre style={{ margin: 0, maxHeight: 120, overflow: 'auto', fontSize: 12 }}>{v}</pre> },
        ]}
      />
    </AppModal>
  );
}

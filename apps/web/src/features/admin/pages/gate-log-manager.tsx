import { Tag, Tooltip } from 'antd';
import type { GateLogDto } from '@kelvin/contracts/admin';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { useSession } from '../../../stores/session';
import { adminKeys, gateLogApi } from '../api';

const METHOD_COLORS: Record<string, string> = { POST: 'green', PUT: 'blue', DELETE: 'red' };

/** gateLogManager (操作日志): every changing call and every denial — read-only, filtered, exported to Excel. */
export default function GateLogManager() {
  const menuList = useSession((s) => s.menuList);
  const menuOptions = menuList.filter((m) => m.type === 'menu').map((m) => ({ label: m.title, value: m.code }));
  return (
    <PageContainer title="操作日志">
      <DataTable<GateLogDto>
        queryKey={adminKeys.gateLog}
        fetchPage={gateLogApi.page}
        rowKey="id"
        exportUrl={gateLogApi.exportUrl}
        exportCode="gateLogManager:export"
        filters={[
          { name: 'username', label: '账号' },
          { name: 'menuCode', label: '菜单', kind: 'select', options: menuOptions, width: 200 },
          { name: 'time', label: '时间', kind: 'dateRange' },
        ]}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (v) => formatDateTime(v) },
          { title: '账号', dataIndex: 'username', width: 140, render: (v) => v ?? '—' },
          { title: '菜单', dataIndex: 'menuTitle', width: 140, render: (v, r) => v ?? r.menuCode ?? '—' },
          { title: '操作', dataIndex: 'operation', render: (v: string) => (v.startsWith('拒绝访问') ? <Tag color="red">{v}</Tag> : v) },
          { title: '方法', dataIndex: 'method', width: 90, render: (v) => <Tag color={METHOD_COLORS[v]}>{v}</Tag> },
          { title: '请求地址', dataIndex: 'uri', ellipsis: true, render: (v) => <Tooltip title={v}>{v}</Tooltip> },
          { title: '来源地址', dataIndex: 'host', width: 140, render: (v) => v ?? '—' },
          { title: '结果', dataIndex: 'status', width: 80, render: (v: number) => <Tag color={v < 400 ? 'green' : 'red'}>{v}</Tag> },
        ]}
      />
    </PageContainer>
  );
}

import { Tag, Tooltip } from 'antd';
import { SMS_KINDS, SMS_STATUSES, type SmsRecordDto } from '@kelvin/contracts/system';
import { DataTable } from '../../../components/data-table';
import { PageContainer } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { smsApi, systemKeys } from '../api';

const STATUS_COLORS: Record<string, string> = { recorded: 'default', pending: 'processing', sent: 'green', failed: 'red' };
const kindName = (k: string) => SMS_KINDS.find((x) => x.code === k)?.name ?? k;
const statusName = (s: string) => SMS_STATUSES.find((x) => x.code === s)?.name ?? s;

/** smsRecordList (短信记录): every message with its status and the reason when it was not sent; Excel export. */
export default function SmsRecordList() {
  return (
    <PageContainer title="短信记录">
      <DataTable<SmsRecordDto>
        queryKey={systemKeys.smsRecords}
        fetchPage={smsApi.records}
        rowKey="id"
        exportUrl={smsApi.recordExportUrl}
        exportCode="smsRecordList:export"
        filters={[
          { name: 'phone', label: '手机号' },
          { name: 'kind', label: '类型', kind: 'select', options: SMS_KINDS.map((k) => ({ value: k.code, label: k.name })) },
          { name: 'status', label: '状态', kind: 'select', options: SMS_STATUSES.map((s) => ({ value: s.code, label: s.name })) },
          { name: 'time', label: '时间', kind: 'dateRange' },
        ]}
        columns={[
          { title: '时间', dataIndex: 'createdAt', width: 170, render: (v) => formatDateTime(v) },
          { title: '手机号', dataIndex: 'phone', width: 130 },
          { title: '类型', dataIndex: 'kind', width: 140, render: kindName },
          { title: '内容', dataIndex: 'content', ellipsis: true, render: (v, r) => <Tooltip title={v}>{r.signName ? `【${r.signName}】` : ''}{v}</Tooltip> },
          { title: '状态', dataIndex: 'status', width: 150, render: (v: string, r) => <Tooltip title={r.error}><Tag color={STATUS_COLORS[v]}>{statusName(v)}</Tag></Tooltip> },
          { title: '说明', dataIndex: 'error', width: 200, ellipsis: true, render: (v) => v ?? '—' },
          { title: '服务商', dataIndex: 'provider', width: 90 },
        ]}
      />
    </PageContainer>
  );
}

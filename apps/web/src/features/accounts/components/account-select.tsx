import { useState } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { accountApi, accountKeys } from '../api';

/** Accounts of a project to pick from (searched by name, phone or room on the server); `groupId` narrows to a group. */
export function AccountSelect({ id, projectId, groupId, value, onChange, multiple, placeholder }: {
  id?: string; projectId: number; groupId?: number; value?: number | number[] | null; onChange?: (v: never) => void; multiple?: boolean; placeholder?: string;
}) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: [...accountKeys.list(projectId), 'options', groupId ?? 'all', keyword],
    queryFn: () => accountApi.list({ projectId, groupId, keyword: keyword || undefined, status: 'active', pageNo: 1, pageSize: 50 }),
  });
  return (
    <Select
      id={id}
      value={value as never}
      onChange={onChange}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      loading={q.isFetching}
      placeholder={placeholder ?? '输入姓名、手机号或房间搜索'}
      options={(q.data?.rows ?? []).map((a) => ({ value: a.id, label: `${a.name}（${a.rooms.map((r) => r.name).join('、') || a.phone}）` }))}
    />
  );
}

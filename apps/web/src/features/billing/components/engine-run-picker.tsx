import { useState } from 'react';
import { Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { BillingRunRow } from '@kelvin/contracts';
import { formatFen } from '../../accounts';
import { billingKeys, engineApi } from '../api';
import { periodText } from './engine-lines';

/** runs offered in the picker (the newest first; older ones are on 设备计费 › 计费批次) */
const RECENT_RUNS = 100;

/**
 * The run a report screen shows: the project's runs, newest first, the latest chosen until someone picks another.
 * Answers the chosen run (null while loading or when the project has none) and the picker.
 */
export function useRunPicker(projectId: number) {
  const runs = useQuery({
    queryKey: [...billingKeys.runs(projectId), 'picker'],
    queryFn: () => engineApi.runs({ projectId, pageNo: 1, pageSize: RECENT_RUNS }),
  });
  const [picked, setPicked] = useState<number | null>(null);
  const rows = runs.data?.rows ?? [];
  const run: BillingRunRow | null = rows.find((r) => r.runId === picked) ?? rows[0] ?? null;
  const picker = (
    <Space>
      <Typography.Text>计费批次</Typography.Text>
      <Select<number>
        aria-label="计费批次"
        style={{ width: 420 }}
        loading={runs.isLoading}
        value={run?.runId}
        placeholder="本项目还没有计费批次"
        onChange={setPicked}
        options={rows.map((r) => ({ value: r.runId, label: `#${r.runId} · ${periodText(r.periodFrom, r.periodUntil)} · ${formatFen(r.totalFen)} 元` }))}
      />
    </Space>
  );
  return { run, picker, loading: runs.isLoading };
}

import { useEffect, useState } from 'react';
import { Badge, Tag } from 'antd';
import type { CommandStatus, DeviceRow } from '@kelvin/contracts/device';
import { COMMAND_STATUS_LABELS } from '@kelvin/contracts/device';

/** Online = reported within the type's heartbeat window; re-evaluated as time passes, without a reload. */
export function isOnline(d: Pick<DeviceRow, 'onlineUntil'>, now: number): boolean {
  return (d.onlineUntil ?? 0) > now;
}

/** The current time, ticking every `ms` (so online badges turn offline when a window lapses). */
export function useNow(ms = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

export function OnlineBadge({ online }: { online: boolean }) {
  return online ? <Badge status="success" text="在线" /> : <Badge status="default" text="离线" />;
}

const STATUS_COLORS: Record<CommandStatus, string> = {
  pending: 'gold',
  sent: 'processing',
  acked: 'success',
  rejected: 'error',
  expired: 'default',
};

export function CommandStatusTag({ status }: { status: CommandStatus }) {
  return <Tag color={STATUS_COLORS[status]} data-testid={`command-status-${status}`}>{COMMAND_STATUS_LABELS[status]}</Tag>;
}

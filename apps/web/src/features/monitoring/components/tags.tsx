import { Tag } from 'antd';
import { ALARM_SEVERITIES, type AlarmSeverity } from '@kelvin/contracts';

export const SEVERITY_COLORS: Record<AlarmSeverity, string> = { critical: 'red', major: 'orange', minor: 'gold', info: 'blue' };
/** chart colours of the severities (critical → info) */
export const SEVERITY_HEX: Record<AlarmSeverity, string> = { critical: '#f5222d', major: '#fa8c16', minor: '#fadb14', info: '#1677ff' };
export const FAULT_COLORS: Record<string, string> = { 告警: 'red', 异常数据: 'orange', 离线: 'default' };

/** An alarm's severity as a coloured tag (紧急 red … 提示 blue). */
export function SeverityTag({ severity, label }: { severity: AlarmSeverity; label?: string }) {
  return <Tag color={SEVERITY_COLORS[severity]}>{label ?? ALARM_SEVERITIES[severity]}</Tag>;
}

import { Tooltip, Typography } from 'antd';
import type { DeviceTypeDef } from '@kelvin/contracts/device-types';
import { formatTime } from '@kelvin/contracts/device-registry';
import { WEEKDAYS, segmentColor, segmentLabel, stateText, weekSegments, type WeekDraft } from '../week-model';

const HOURS = [0, 3, 6, 9, 12, 15, 18, 21, 24];
const COMPACT_HOURS = [0, 6, 12, 18, 24];

/**
 * The week at a glance: one bar per weekday over 00:00–24:00, a segment per slot coloured by the set temperature
 * (grey = off) and labelled with it; hovering shows every field in force. `today` (0 = Monday) is highlighted.
 */
export function WeekTimeline({ def, week, today, compact }: { def: DeviceTypeDef; week: WeekDraft; today?: number; compact?: boolean }) {
  const days = weekSegments(week);
  const rowHeight = compact ? 18 : 26;
  return (
    <div data-testid="week-timeline" style={{ fontSize: 12, minWidth: 360 }}>
      <div style={{ display: 'flex', marginLeft: 40, position: 'relative', height: 16 }}>
        {(compact ? COMPACT_HOURS : HOURS).map((h) => (
          <span key={h} style={{ position: 'absolute', left: `${(h / 24) * 100}%`, transform: h === 24 ? 'translateX(-100%)' : h ? 'translateX(-50%)' : undefined, color: 'rgba(0,0,0,0.45)', fontSize: compact ? 10 : 12 }}>
            {compact ? h : `${String(h).padStart(2, '0')}:00`}
          </span>
        ))}
      </div>
      {days.map((segs, day) => (
        <div key={day} style={{ display: 'flex', alignItems: 'center', marginTop: 4 }} data-testid={`timeline-day-${day}`}>
          <Typography.Text strong={day === today} style={{ width: 40, fontSize: 12 }}>{WEEKDAYS[day]}</Typography.Text>
          <div style={{ position: 'relative', flex: 1, height: rowHeight, background: '#fafafa', borderRadius: 4, overflow: 'hidden', outline: day === today ? '2px solid #1677ff' : undefined }}>
            {segs.map((s) => {
              const label = segmentLabel(def, s.state);
              const width = ((s.to - s.from) / 1440) * 100;
              return (
                <Tooltip key={s.from} title={`${WEEKDAYS[day]} ${formatTime(s.from)}–${s.to === 1440 ? '24:00' : formatTime(s.to)}${s.starts ? '' : '（延续前一时段）'}：${stateText(def, s.state)}`}>
                  <div
                    data-testid="timeline-segment"
                    style={{
                      position: 'absolute', top: 0, bottom: 0, left: `${(s.from / 1440) * 100}%`, width: `${width}%`,
                      background: segmentColor(s.state), borderLeft: s.starts ? '2px solid rgba(0,0,0,0.35)' : undefined,
                      color: 'rgba(0,0,0,0.75)', fontSize: 11, lineHeight: `${rowHeight}px`, paddingLeft: 3, whiteSpace: 'nowrap', overflow: 'hidden',
                    }}
                  >
                    {width > 6 && !compact ? label : ''}
                  </div>
                </Tooltip>
              );
            })}
          </div>
        </div>
      ))}
      {!compact && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 6, fontSize: 12 }}>
          颜色表示设定温度（蓝低红高），灰色为关机；竖线为时段开始，每周循环。
        </Typography.Text>
      )}
    </div>
  );
}

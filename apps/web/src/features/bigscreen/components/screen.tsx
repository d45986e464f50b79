import { lazy, memo, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ALARM_SEVERITIES, SCROLL_BOARD_DEFAULTS, type BigScreenEnergy, type BigScreenProject, type BigScreenSummary } from '@kelvin/contracts';
import { clockParts, formatMillis } from '../../../lib/clock';
import { ProjectMap } from '../../projects';
import { DigitalFlop } from './digital-flop';
import { ScrollBoard } from './scroll-board';

// ECharts loads after the figures are on screen (first paint does not wait for it)
const TrendChart = lazy(() => import('./trend-chart'));
const Trend = ({ trend, height }: { trend: BigScreenSummary['trend']; height: number }) => (
  <Suspense fallback={<div style={{ height }} />}><TrendChart trend={trend} height={height} /></Suspense>
);

const SEVERITY_COLORS = { critical: '#ff4d4f', major: '#fa8c16', minor: '#fadb14', info: '#40a9ff' } as const;

const Clock = memo(function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(t);
  }, []);
  const c = clockParts(now);
  return <div className="bs-clock">{c.date} {c.weekday} {c.time}</div>;
});

function Kpi({ label, value, unit, sub, toFixed = 0, testId }: { label: string; value: number | null; unit?: string; sub: ReactNode; toFixed?: number; testId: string }) {
  return (
    <div className="bs-kpi">
      <div className="bs-kpi-label">{label}</div>
      <div className="bs-kpi-value"><DigitalFlop value={value} toFixed={toFixed} testId={testId} />{unit && <span className="bs-kpi-unit">{unit}</span>}</div>
      <div className="bs-kpi-sub">{sub}</div>
    </div>
  );
}

/** today against the whole of yesterday: the change in %, or why there is none */
function versus(e: BigScreenEnergy) {
  if (e.meters === 0) return '无计量设备';
  if (e.yesterday === null) return `昨日全天 无读数`;
  const y = `昨日全天 ${e.yesterday.toLocaleString('zh-CN', { maximumFractionDigits: 2 })} ${e.unit}`;
  if (e.today === null || e.yesterday === 0) return y;
  const pct = ((e.today - e.yesterday) / e.yesterday) * 100;
  return <>{y} <span className={pct >= 0 ? 'bs-up' : 'bs-down'}>{pct >= 0 ? '▲' : '▼'}{Math.abs(pct).toFixed(1)}%</span></>;
}

const Panel = ({ title, children, style, testId }: { title: string; children: ReactNode; style?: React.CSSProperties; testId?: string }) => (
  <div className="bs-panel" style={style} data-testid={testId}>
    <div className="bs-panel-title">{title}</div>
    {children}
  </div>
);

const TopList = memo(function TopList({ top, unit }: { top: BigScreenSummary['top']; unit: string }) {
  if (!top.length) return <div className="bs-empty">今日暂无用电读数</div>;
  const max = top[0].usage || 1;
  return (
    <div data-testid="bs-top">
      {top.map((t, i) => (
        <div key={t.deviceId} className="bs-rank">
          <div className="bs-rank-no" style={{ background: i < 3 ? '#d46b08' : undefined }}>{i + 1}</div>
          <div style={{ minWidth: 0 }}>
            <div style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{t.deviceName}<span style={{ color: '#7fa7d6', marginLeft: 8, fontSize: 16 }}>{t.place}</span></div>
            <div className="bs-rank-bar" style={{ width: `${Math.max(2, (t.usage / max) * 100)}%` }} />
          </div>
          <div style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{t.usage.toLocaleString('zh-CN', { maximumFractionDigits: 1 })} {unit}</div>
        </div>
      ))}
    </div>
  );
});

const Alarms = memo(function Alarms({ alarms, height, showProject }: { alarms: BigScreenSummary['alarms']; height: number; showProject: boolean }) {
  return (
    <ScrollBoard height={height} testId="bs-alarms" empty="当前没有告警"
      columns={[
        { title: '时间', width: 72 }, ...(showProject ? [{ title: '项目', width: 120 }] : []), { title: '设备', width: 'auto' as const },
        { title: '告警', width: 'auto' as const }, { title: '级别', width: 64, align: 'center' as const },
      ]}
      rows={alarms.map((a) => ({
        key: a.id,
        cells: [
          formatMillis(a.createdAt).slice(11, 16), ...(showProject ? [a.projectName] : []), a.deviceName, `${a.ruleName}（${a.value}）`,
          <span key="s" style={{ color: SEVERITY_COLORS[a.severity] }}>{ALARM_SEVERITIES[a.severity]}</span>,
        ],
      }))} />
  );
});

const ProjectBoard = memo(function ProjectBoard({ projects, height }: { projects: BigScreenProject[]; height: number }) {
  return (
    <ScrollBoard height={height} testId="bs-projects" empty="暂无项目" rowNum={6}
      columns={[{ title: '项目', width: 'auto' }, { title: '在线/总数', width: 120, align: 'right' }, { title: '在线率', width: 96, align: 'right' }, { title: '告警', width: 64, align: 'right' }]}
      rows={projects.map((p) => ({
        key: p.id,
        cells: [p.name, `${p.online}/${p.devices}`, p.onlineRate === null ? '—' : `${p.onlineRate}%`, <span key="a" className={p.activeAlarms ? 'bs-up' : undefined}>{p.activeAlarms}</span>],
      }))} />
  );
});

function OverviewMap({ projects }: { projects: BigScreenProject[] }) {
  const [hover, setHover] = useState<number | null>(null);
  return (
    <div data-testid="bs-map" style={{ flex: 1, minHeight: 0, display: 'flex', alignItems: 'center' }}>
      <div style={{ width: '100%' }}>
        <ProjectMap items={projects} theme="dark" hover={hover} onHover={setHover}
          detail={(p) => `设备 ${p.online}/${p.devices} · 在线率 ${p.onlineRate ?? '—'}%${p.activeAlarms ? ` · 告警 ${p.activeAlarms}` : ''}`} />
      </div>
    </div>
  );
}

function EnergyCompare({ s }: { s: BigScreenSummary }) {
  const row = (label: string, e: BigScreenEnergy) => {
    const max = Math.max(e.today ?? 0, e.yesterday ?? 0) || 1;
    const bar = (v: number | null, color: string, what: string) => (
      <div style={{ display: 'grid', gridTemplateColumns: '80px 1fr 170px', alignItems: 'center', gap: 12, fontSize: 20, height: 40 }}>
        <span style={{ color: '#9cc3f0' }}>{what}</span>
        <div style={{ height: 14, background: 'rgba(47,109,181,0.25)', borderRadius: 7 }}>
          <div style={{ height: 14, width: `${((v ?? 0) / max) * 100}%`, background: color, borderRadius: 7, transition: 'width .8s ease' }} />
        </div>
        <span style={{ textAlign: 'right' }}>{v === null ? '无读数' : `${v.toLocaleString('zh-CN', { maximumFractionDigits: 2 })} ${e.unit}`}</span>
      </div>
    );
    return (
      <div style={{ marginBottom: 12 }}>
        <div style={{ fontSize: 22, marginBottom: 4 }}>{label}</div>
        {e.meters === 0 ? <div className="bs-empty" style={{ padding: 8 }}>该项目没有{label === '电量' ? '电能' : '热量'}计量设备</div> : <>{bar(e.today, '#1677ff', '今日')}{bar(e.yesterday, '#36cfc9', '昨日')}</>}
      </div>
    );
  };
  return <div data-testid="bs-compare">{row('电量', s.electricity)}{row('热量', s.heat)}</div>;
}

/**
 * The dark dashboard of a big screen (1920×1080 stage): KPIs as digital flops, top consumers, the 24-hour trend,
 * active alarms as a scroll board, and — on the comprehensive screen — the projects on the offline map.
 */
export function Screen({ s, kind, tools }: { s: BigScreenSummary; kind: 'overview' | 'project'; tools: ReactNode }) {
  return (
    <>
      <div className="bs-header">
        <Clock />
        <div className="bs-title" data-testid="bs-title">{s.title}</div>
        <div className="bs-tools">{tools}</div>
      </div>
      <div className="bs-kpis">
        <Kpi label="设备在线" value={s.devices.online} testId="bs-online" sub={<>共 {s.devices.total} 台 · 在线率 {s.devices.onlineRate ?? '—'}%</>} />
        <Kpi label="运行机组" value={s.units.running} testId="bs-running" sub={<>空调、采暖机组共 {s.units.total} 台</>} />
        <Kpi label="今日电量" value={s.electricity.today} unit={s.electricity.unit} testId="bs-electricity" sub={versus(s.electricity)} />
        <Kpi label="今日热量" value={s.heat.today} unit={s.heat.unit} toFixed={2} testId="bs-heat" sub={versus(s.heat)} />
        <Kpi label="当前告警" value={s.activeAlarms} testId="bs-alarm-count" sub={kind === 'overview' ? <>项目 {s.projects.length} 个</> : '未恢复的告警'} />
      </div>
      <div className="bs-body">
        <div className="bs-col">
          <Panel title="今日用电排行（前 10）" style={{ flex: 1 }}><TopList top={s.top} unit={s.electricity.unit} /></Panel>
        </div>
        <div className="bs-col">
          {kind === 'overview' ? (
            <>
              <Panel title="项目分布与在线" style={{ flex: 1 }}><OverviewMap projects={s.projects} /></Panel>
              <Panel title="最近 24 小时能耗" style={{ height: 300 }}><Trend trend={s.trend} height={240} /></Panel>
            </>
          ) : (
            <>
              <Panel title="最近 24 小时能耗" style={{ flex: 1 }}><Trend trend={s.trend} height={460} /></Panel>
              <Panel title="今日与昨日" style={{ height: 260 }}><EnergyCompare s={s} /></Panel>
            </>
          )}
        </div>
        <div className="bs-col">
          <Panel title="实时告警" testId="bs-alarm-panel">
            <Alarms alarms={s.alarms} height={SCROLL_BOARD_DEFAULTS.headerHeight + 5 * 56} showProject={kind === 'overview'} />
          </Panel>
          {kind === 'overview'
            // what the column leaves below the alarms: 770 − 385 (alarm panel) − 20 (gap) − 24 (padding) − 44 (title) − 2
            ? <Panel title="项目在线" style={{ flex: 1 }}><ProjectBoard projects={s.projects} height={290} /></Panel>
            : <Panel title="设备在线率" style={{ flex: 1 }}><OnlineRing s={s} /></Panel>}
        </div>
      </div>
    </>
  );
}

/** the project's online rate as a ring (an SVG stroke, its length moved by CSS) */
function OnlineRing({ s }: { s: BigScreenSummary }) {
  const r = 120;
  const c = 2 * Math.PI * r;
  const rate = s.devices.onlineRate ?? 0;
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', flex: 1 }}>
      <svg width={300} height={300} viewBox="0 0 300 300">
        <circle cx={150} cy={150} r={r} fill="none" stroke="rgba(47,109,181,0.3)" strokeWidth={22} />
        <circle cx={150} cy={150} r={r} fill="none" stroke="#36cfc9" strokeWidth={22} strokeLinecap="round" transform="rotate(-90 150 150)"
          strokeDasharray={c} strokeDashoffset={c * (1 - rate / 100)} style={{ transition: 'stroke-dashoffset .8s ease' }} />
        <text x={150} y={150} textAnchor="middle" fill="#fff" fontSize={56} fontWeight={700}>{s.devices.onlineRate === null ? '—' : `${rate}%`}</text>
        <text x={150} y={195} textAnchor="middle" fill="#9cc3f0" fontSize={22}>{s.devices.online} / {s.devices.total} 台在线</text>
      </svg>
    </div>
  );
}

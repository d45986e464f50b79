import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { BigScreenSummary } from '@kelvin/contracts';
import { toastWarning } from '../../../lib/feedback';
import { Screen } from './screen';
import { Stage } from './stage';

function useFullscreen() {
  const [on, setOn] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const sync = () => setOn(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) return toastWarning('当前浏览器不支持全屏，请更换浏览器');
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch(() => toastWarning('浏览器拒绝了全屏，请按 F11'));
  };
  return { on, toggle };
}

/** 全屏 / 退出全屏 and, inside the console, 退出 (back where the user came from). */
export function ScreenTools({ extra, exit = true }: { extra?: ReactNode; exit?: boolean }) {
  const navigate = useNavigate();
  const full = useFullscreen();
  const leave = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    if (window.history.length > 1) navigate(-1);
    else navigate('/');
  };
  return (
    <>
      {extra}
      <button type="button" className="bs-btn" onClick={full.toggle}>{full.on ? '退出全屏' : '全屏'}</button>
      {exit && <button type="button" className="bs-btn" onClick={leave}>退出</button>}
    </>
  );
}

/** A screen on its stage, or its loading / empty / failed state in the same dark frame. */
export function ScreenFrame({ data, isLoading, error, kind, tools, failure }: {
  data: BigScreenSummary | undefined;
  isLoading: boolean;
  error: unknown;
  kind: 'overview' | 'project';
  tools: ReactNode;
  /** what to say when the summary cannot be read */
  failure?: ReactNode;
}) {
  let body: ReactNode;
  if (data) body = <Screen s={data} kind={kind} tools={tools} />;
  else {
    const text = isLoading ? '正在加载大屏数据…' : error ? failure ?? `大屏数据加载失败：${(error as Error).message}` : '请先选择项目';
    body = (
      <>
        <div className="bs-header"><div className="bs-clock" /><div className="bs-title">{kind === 'overview' ? '综合大屏' : '项目大屏'}</div><div className="bs-tools">{tools}</div></div>
        <div className="bs-empty" style={{ paddingTop: 360, fontSize: 36 }} data-testid="bs-state">{text}</div>
      </>
    );
  }
  return <Stage>{body}</Stage>;
}

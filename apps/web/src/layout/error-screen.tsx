import { Button } from 'antd';
import { isChunkLoadError, NEW_VERSION_TEXT, NEW_VERSION_TITLE, RELOAD_LABEL } from '../lib/chunk-reload';

/**
 * What a screen shows when it cannot be shown: a new build replaced the one this tab runs (its chunk is gone), or the
 * screen failed while rendering. Part of the shell (never loaded lazily: a lazily loaded error screen fails too).
 */
export function ErrorScreen({ error, title, fullPage = false }: { error: unknown; title?: string; fullPage?: boolean }) {
  const newVersion = isChunkLoadError(error);
  return (
    <div role="alert" data-testid="error-screen" style={{ padding: fullPage ? '18vh 24px' : '64px 24px', textAlign: 'center', background: fullPage ? '#f5f5f5' : undefined, minHeight: fullPage ? '100vh' : undefined }}>
      <div style={{ fontSize: 20, fontWeight: 600, color: 'rgba(0,0,0,0.88)', marginBottom: 8 }}>{newVersion ? NEW_VERSION_TITLE : '页面出错了'}</div>
      <div style={{ color: 'rgba(0,0,0,0.55)', marginBottom: 24, lineHeight: 1.8 }}>
        {newVersion ? NEW_VERSION_TEXT : `${title ? `「${title}」` : '页面'}显示时出错，错误已记录到 bug日志。请刷新页面重试，或返回首页。`}
      </div>
      <Button type="primary" onClick={() => window.location.reload()}>{RELOAD_LABEL}</Button>
      <Button style={{ marginLeft: 12 }} href="/">返回首页</Button>
    </div>
  );
}

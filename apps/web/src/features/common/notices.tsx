import { Result } from 'antd';

export type NoticeKind = 'not-ready' | 'not-supported';

/**
 * Plain notices inside the layout: a screen whose issue has not landed says so (未开放) — never fake data; a screen
 * the selected project's type does not use. Loaded lazily (outside the shell bundle).
 */
export default function Notice({ kind, title }: { kind: NoticeKind; title: string }) {
  if (kind === 'not-ready') {
    return <Result status="info" data-testid="not-ready" title={`${title}（未开放）`} subTitle="该功能尚未开放，敬请期待。" />;
  }
  return <Result status="info" title="当前项目不支持此功能" subTitle={`「${title}」只适用于特定类型的项目，请切换项目后再试`} />;
}

import type { ReactNode } from 'react';
import { Empty } from 'antd';
import { useParams } from 'react-router';
import { projectIdFromMobileParam } from '@kelvin/contracts/access';
import { useProject } from '../stores/project';

/** The frame of a screen: a title row with optional actions, then the content. */
export function PageContainer({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <section style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, minHeight: 32 }}>
        <h2 style={{ margin: 0, fontSize: 18, fontWeight: 600 }}>{title}</h2>
        {extra}
      </div>
      {children}
    </section>
  );
}

/** A project screen opened before a project is chosen in the top bar: its frame and what to do. */
export function NoProject({ title }: { title: ReactNode }) {
  return <PageContainer title={title}><Empty description="请先在顶部选择项目" /></PageContainer>;
}

/**
 * The project a screen works on: the route's optional :projectId (mobile links carry id ÷ 1.7891) or the project
 * selected in the top bar. null until a project is selected.
 */
export function useProjectId(): number | null {
  const params = useParams();
  const selected = useProject((s) => s.current?.id ?? null);
  const raw = params.projectId ? Number(params.projectId) : NaN;
  if (Number.isFinite(raw) && raw > 0) {
    const id = projectIdFromMobileParam(raw);
    if (useProject.getState().projects.some((p) => p.id === id)) return id;
  }
  return selected;
}

import { Empty, Tabs, Typography } from 'antd';
import { useLocation } from 'react-router';
import { REPORT_BY_CODE, reportTabs } from '@kelvin/contracts';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useProject } from '../../../stores/project';
import { ReportView } from '../components/report-view';

/**
 * Every report screen of /datacenter: the registry entry named by the route (plus its tabs, e.g. 数据统计's ranking,
 * run hours, groups and temperatures) for the project selected in the top bar.
 */
export default function ReportPage() {
  const { pathname } = useLocation();
  const code = pathname.split('/').filter(Boolean).find((s) => REPORT_BY_CODE.has(s)) ?? '';
  const def = REPORT_BY_CODE.get(code);
  const projectId = useProjectId();
  const projectName = useProject((s) => s.projects.find((p) => p.id === projectId)?.label ?? '');
  if (!def) return <PageContainer title="报表"><Empty description="没有这张报表" /></PageContainer>;
  if (projectId === null) return <NoProject title={def.title} />;
  const tabs = [def, ...reportTabs(def.code)];
  const view = (d: typeof def) => (
    <>
      <Typography.Paragraph type="secondary" style={{ margin: '0 0 8px' }}>{d.description}</Typography.Paragraph>
      <ReportView key={`${d.code}:${projectId}`} def={d} projectId={projectId} projectName={projectName} />
    </>
  );
  return (
    <PageContainer title={def.title}>
      {tabs.length === 1 ? view(def) : (
        <Tabs destroyOnHidden items={tabs.map((t) => ({ key: t.code, label: t === def ? '能耗趋势' : t.title, children: view(t) }))} />
      )}
    </PageContainer>
  );
}

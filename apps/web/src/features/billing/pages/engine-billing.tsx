import { Tabs } from 'antd';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { ChargeSummaryTab } from '../components/engine-charge-summary';
import { RunsTab } from '../components/engine-runs';
import { SupplyTab } from '../components/engine-supply';

/**
 * equipmentBilling_n (设备计费): what the devices of the project cost — per device over a range, the charge runs with
 * their lines and gaps (立即计费), and the prepaid loop's cut-offs and reconnections.
 */
export default function EquipmentBillingPage() {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title="设备计费" />;
  return (
    <PageContainer title="设备计费">
      <Tabs destroyOnHidden items={[
        { key: 'summary', label: '设备计费汇总', children: <ChargeSummaryTab projectId={projectId} /> },
        { key: 'runs', label: '计费批次', children: <RunsTab projectId={projectId} /> },
        { key: 'supply', label: '供能控制', children: <SupplyTab projectId={projectId} /> },
      ]} />
    </PageContainer>
  );
}

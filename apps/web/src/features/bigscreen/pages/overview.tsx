import { useScreenSummary } from '../api';
import { ScreenFrame, ScreenTools } from '../components/frame';

/** monitoringCenterTose (综合大屏): every project of the user, on the offline map with their online figures. */
export default function OverviewScreen() {
  const { data, isLoading, error } = useScreenSummary('all');
  return <ScreenFrame data={data} isLoading={isLoading} error={error} kind="overview" tools={<ScreenTools />} />;
}

import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { parseProjectId } from '../../../stores/project';
import { useProjectId } from '../../../components/page';
import { useCan } from '../../../lib/ui';
import { useScreenSummary } from '../api';
import { ScreenFrame, ScreenTools } from '../components/frame';
import { ShareDialog } from '../components/share-dialog';

/** monitorScreen (项目大屏): the selected project; 分享 makes a public read-only link of it (/dataviews). */
export default function ProjectScreen() {
  const [params] = useSearchParams();
  // ?projectId= (a link to the screen) is read at once, not after the shell has selected the project; the server checks it
  const selected = useProjectId();
  const projectId = parseProjectId(params.get('projectId')) ?? selected;
  const { data, isLoading, error } = useScreenSummary(projectId);
  const [sharing, setSharing] = useState(false);
  const canShare = useCan('monitorScreen:btn_add');
  const share = canShare && projectId !== null ? <button type="button" className="bs-btn" onClick={() => setSharing(true)}>分享</button> : null;
  return (
    <>
      <ScreenFrame data={data} isLoading={isLoading} error={error} kind="project" tools={<ScreenTools extra={share} />} />
      {sharing && projectId !== null && <ShareDialog projectId={projectId} projectName={data?.title ?? ''} onClose={() => setSharing(false)} />}
    </>
  );
}

import { AreaTreeSelect } from '../../projects';

const ROOMS = ['room'] as const;

/** Buildings → floors → rooms of a project; only rooms can be picked (several for a company renting a floor). */
export function RoomPicker({ id, projectId, value, onChange, disabled }: { id?: string; projectId: number; value?: number[]; onChange?: (v: number[]) => void; disabled?: boolean }) {
  return (
    <AreaTreeSelect id={id} multiple projectId={projectId} levels={ROOMS} value={value} onChange={onChange} disabled={disabled}
      placeholder="选择房间（可多选，可输入楼栋、房间号查找）" maxTagCount={6} data-testid="room-picker" />
  );
}

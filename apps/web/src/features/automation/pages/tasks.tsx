import { useLocation } from 'react-router';
import { TASK_KIND_MENUS, type TaskKind } from '@kelvin/contracts/automation';
import { TaskPage } from '../components/task-page';

const KIND_BY_MENU = new Map(Object.entries(TASK_KIND_MENUS).map(([kind, menu]) => [menu, kind as TaskKind]));

/** /device/task (定时任务), scheduledTask (周期任务), strategicsTask (策略任务), holidayTask (节假日任务): the kind is the route's. */
export default function TasksPage() {
  const { pathname } = useLocation();
  const kind = KIND_BY_MENU.get(pathname.split('/').filter(Boolean).at(-1) ?? '') ?? 'once';
  // a new kind is a new screen: its own state, not the previous kind's
  return <TaskPage key={kind} kind={kind} />;
}

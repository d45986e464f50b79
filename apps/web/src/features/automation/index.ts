/** Automation (week programs, program schemes, tasks, overtime pool): what other features may use. */
export { automationApi, automationKeys } from './api';
export { WeekProgramEditor } from './components/week-program-editor';
export { WeekTimeline } from './components/week-timeline';

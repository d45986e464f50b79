import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

// design §2: antd's zh-CN locale and dayjs' zh-cn go together
dayjs.locale('zh-cn');

/** Default date format (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export function formatDateTime(value: number | string | Date | null | undefined, format = DATE_TIME_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(format) : '';
}

export { dayjs };
export { relativeTime } from './clock';

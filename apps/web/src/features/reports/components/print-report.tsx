import { formatReportValue, type ReportDef, type ReportRow } from '@kelvin/contracts';
import { toastWarning } from '../../../lib/feedback';
import { formatDateTime } from '../../../lib/time';
import { reportApi, type ReportParams } from '../api';
import { columnTitle, isNumeric } from './columns';

/** More than this is a job for the Excel export, not for paper. */
const PRINT_LIMIT = 5000;
const PAGE = 200;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/**
 * The print view: everything the filters select (up to 5,000 rows) as one table under a header of the project, the
 * report, the filters and the time, on A4 landscape with page numbers (shell.css @page). The header row repeats on
 * every printed page. Built with DOM text nodes only (no HTML from data).
 */
export async function printReport(def: ReportDef, projectName: string, params: ReportParams) {
  const rows: ReportRow[] = [];
  let first;
  for (let pageNo = 1; ; pageNo++) {
    const page = await reportApi.page(def.code, { ...params, pageNo, pageSize: PAGE });
    first ??= page;
    if (page.total > PRINT_LIMIT) {
      toastWarning(`共 ${page.total} 条，超过打印上限 ${PRINT_LIMIT} 条，请缩小范围或导出 Excel`);
      return;
    }
    rows.push(...page.rows);
    if (rows.length >= page.total || !page.rows.length) break;
  }
  const root = el('div', undefined, 'kv-print-root');
  root.append(el('h1', `${projectName} · ${def.title}`));
  root.append(el('div', first.applied.map((a) => `${a.label}：${a.value}`).join('　') || '筛选：全部', 'kv-print-meta'));
  root.append(el('div', `生成时间：${formatDateTime(Date.now())}\u3000共 ${first.total} 条`, 'kv-print-meta'));
  for (const n of first.notes) root.append(el('div', `说明：${n}`, 'kv-print-meta'));
  const table = el('table');
  const head = el('tr');
  for (const c of def.columns) head.append(el('th', columnTitle(c)));
  const thead = el('thead');
  thead.append(head);
  table.append(thead);
  const body = el('tbody');
  for (const r of rows) {
    const tr = el('tr');
    for (const c of def.columns) tr.append(el('td', formatReportValue(r[c.key], c.format), isNumeric(c.format) ? 'num' : undefined));
    body.append(tr);
  }
  if (Object.keys(first.totals).length) {
    const tr = el('tr', undefined, 'total');
    def.columns.forEach((c, i) => tr.append(el('td', i === 0 ? '合计' : c.key in first.totals ? formatReportValue(first.totals[c.key], c.format) : '', isNumeric(c.format) ? 'num' : undefined)));
    body.append(tr);
  }
  table.append(body);
  root.append(table);
  document.body.append(root);
  document.body.classList.add('kv-printing');
  const done = () => {
    root.remove();
    document.body.classList.remove('kv-printing');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}

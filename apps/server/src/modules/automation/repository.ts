import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type {
  AutomationOvertimeTable, AutomationProgramTable, AutomationRunResultTable, AutomationRunTable, AutomationSchemeTable, AutomationTaskTable,
} from '../../db/schema.ts';

export type ProgramRow = Selectable<AutomationProgramTable>;
export type SchemeRow = Selectable<AutomationSchemeTable>;
export type TaskRow = Selectable<AutomationTaskTable>;
export type RunRow = Selectable<AutomationRunTable>;
export type ResultRow = Selectable<AutomationRunResultTable>;
export type OvertimeRow = Selectable<AutomationOvertimeTable>;
export type NewRun = Insertable<AutomationRunTable>;
export type NewResult = Insertable<AutomationRunResultTable>;

export const json = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** Every schedulable task (the scheduler's cache). */
export function scheduledTasks(db: Db) {
  return db.selectFrom('automation_task').selectAll().where('enabled', '=', 1).where('kind', 'in', ['once', 'periodic', 'holiday', 'memory']).execute();
}
export function strategyTasks(db: Db, projectId: number) {
  return db.selectFrom('automation_task').selectAll().where('enabled', '=', 1).where('kind', '=', 'strategy').where('project_id', '=', projectId).execute();
}
export function enabledPrograms(db: Db) {
  return db.selectFrom('automation_program').selectAll().where('enabled', '=', 1).execute();
}

/** Moves sources' cursors forward only (several processes move them; the furthest wins). */
export async function advanceCursors(db: Db, sources: string[], to: number) {
  for (const [prefix, table] of [['t', 'automation_task'], ['p', 'automation_program']] as const) {
    const ids = sources.filter((s) => s.startsWith(`${prefix}:`)).map((s) => Number(s.slice(2)));
    for (let i = 0; i < ids.length; i += 500) {
      await db.updateTable(table).set({ cursor_at: to }).where('id', 'in', ids.slice(i, i + 500)).where('cursor_at', '<', to).execute();
    }
  }
}

/**
 * Claims runs: a row per (source, due time), inserted only if no process has it yet. Returns the rows this call
 * inserted (the claims it won).
 */
export async function claimRuns(db: Db, runs: NewRun[]): Promise<RunRow[]> {
  const won: RunRow[] = [];
  for (let i = 0; i < runs.length; i += 500) {
    const chunk = runs.slice(i, i + 500);
    const rows = await db.insertInto('automation_run').values(chunk)
      .onConflict((oc) => oc.columns(['source', 'scheduled_at']).doNothing())
      .returningAll().execute();
    won.push(...rows);
  }
  return won;
}

export async function insertResults(db: Db, rows: NewResult[]): Promise<ResultRow[]> {
  const out: ResultRow[] = [];
  for (let i = 0; i < rows.length; i += 500) out.push(...await db.insertInto('automation_run_result').values(rows.slice(i, i + 500)).returningAll().execute());
  return out;
}

export function resultsOf(db: Db, runIds: number[]) {
  if (!runIds.length) return Promise.resolve([] as ResultRow[]);
  return db.selectFrom('automation_run_result').selectAll().where('run_id', 'in', runIds).orderBy('id').execute();
}

/** Takes over a run whose issuing stopped (process died): only one process wins the compare-and-set. */
export async function takeOver(db: Db, run: Pick<RunRow, 'id' | 'issuing_since'>, now: number): Promise<boolean> {
  if (run.issuing_since === null) return false;
  const r = await db.updateTable('automation_run').set({ issuing_since: now }).where('id', '=', run.id).where('issuing_since', '=', run.issuing_since).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function staleIssuing(db: Db, before: number) {
  return db.selectFrom('automation_run').selectAll().where('issuing_since', 'is not', null).where('issuing_since', '<', before).limit(200).execute();
}

/** The run's status from its results: running while any is pending. */
export async function settleRuns(db: Db, runIds: number[], now: number) {
  if (!runIds.length) return;
  const counts = await db.selectFrom('automation_run_result').select(['run_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('run_id', 'in', runIds).groupBy(['run_id', 'status']).execute();
  const byRun = new Map<number, Record<string, number>>();
  for (const id of runIds) byRun.set(id, {});
  for (const c of counts) byRun.get(c.run_id)![c.status] = Number(c.n);
  for (const [id, c] of byRun) {
    if (c.pending) continue;
    const good = c.acked ?? 0;
    const bad = (c.rejected ?? 0) + (c.expired ?? 0);
    const status = good + bad === 0 || good === 0 ? 'failed' : bad === 0 ? 'success' : 'partial';
    await db.updateTable('automation_run').set({ status, finished_at: now }).where('id', '=', id).where('status', '=', 'running').where('issuing_since', 'is', null).execute();
  }
}

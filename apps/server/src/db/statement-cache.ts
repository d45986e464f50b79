import type { Database as SqliteFile, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many prepared statements the main thread's connection keeps (a query's SQL text is its key). */
const MAX_STATEMENTS = 500;

/**
 * The main thread's SQLite connection as Kysely sees it, with its prepared statements kept: Kysely prepares every
 * query anew, and better-sqlite3's prepare (parsing and planning the SQL) was about a seventh of the main thread's
 * busy time with 10,000 devices connecting. A statement still being iterated (a streamed query) is busy, so the same
 * SQL gets a fresh one then. SQLite re-prepares a kept statement by itself after a schema change.
 */
export function withStatementCache(file: SqliteFile): SqliteDatabase {
  const kept = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      const hit = kept.get(sql);
      if (hit && !hit.busy) {
        // most recently used last: the first key is the one to drop
        kept.delete(sql);
        kept.set(sql, hit);
        return hit;
      }
      const stmt = file.prepare(sql);
      if (!hit) {
        kept.set(sql, stmt);
        if (kept.size > MAX_STATEMENTS) kept.delete(kept.keys().next().value!);
      }
      return stmt;
    },
    close() {
      kept.clear();
      file.close();
    },
  };
}

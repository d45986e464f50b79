import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

/** The few places where SQLite and PostgreSQL differ, in one spot. */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  const name = db.getExecutor().adapter.constructor.name;
  return name.startsWith('Postgres') ? 'postgres' : 'sqlite';
}

/** An auto-incrementing integer primary key named `id`. */
export function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return dialectOf(db) === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Epoch-millisecond and other 64-bit integers. */
export const bigint = 'bigint' as const;
export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();

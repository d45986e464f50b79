import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * Operating Kelvin itself: every server process's row in the registry (服务注册中心, heart-beaten every few seconds;
 * several processes share it on PostgreSQL) and the kept request traces (调用链路追踪: failed and slow requests with
 * their spans as JSON, capped to the newest rows).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('ops_instance')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(128)', notNull)
    .addColumn('pid', 'integer', notNull)
    .addColumn('version', 'varchar(32)', notNull)
    .addColumn('node', 'varchar(16)', notNull)
    .addColumn('roles', 'varchar(64)', notNull)
    .addColumn('started_at', bigint, notNull)
    .addColumn('heartbeat_at', bigint, notNull)
    .addColumn('stopped_at', bigint)
    .addColumn('load1', 'real', notNull)
    .addColumn('rss_mb', 'integer', notNull)
    .addColumn('heap_mb', 'integer', notNull)
    .addColumn('devices_connected', 'integer')
    .addColumn('loop_p99_ms', 'real')
    .addColumn('requests_per_min', 'integer', notNull)
    .execute();
  await db.schema.createIndex('ops_instance_heartbeat').on('ops_instance').column('heartbeat_at').execute();

  await withId(db, db.schema.createTable('ops_trace'))
    .addColumn('trace_id', 'varchar(32)', notNull)
    .addColumn('instance_id', 'varchar(64)', notNull)
    .addColumn('at', bigint, notNull)
    .addColumn('duration_ms', 'integer', notNull)
    .addColumn('method', 'varchar(8)', notNull)
    .addColumn('route', 'varchar(200)', notNull)
    .addColumn('path', 'varchar(500)', notNull)
    .addColumn('status', 'integer', notNull)
    .addColumn('user_id', bigint)
    .addColumn('username', 'varchar(64)')
    .addColumn('tenant_id', bigint)
    .addColumn('kept', 'varchar(8)', notNull)
    .addColumn('span_count', 'integer', notNull)
    .addColumn('dropped_spans', 'integer', notNull)
    .addColumn('spans', 'text', notNull)
    .execute();
  await db.schema.createIndex('ops_trace_trace').on('ops_trace').column('trace_id').execute();
  await db.schema.createIndex('ops_trace_at').on('ops_trace').column('at').execute();
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestKelvin, type TestClient } from '../test/harness.ts';
import { dialectOf } from './dialect.ts';
import * as historyOrder from './migrations/006-history-order.ts';

describe('迁移 006：历史数据按 (设备, 时间, 字段) 排列', () => {
  let k: TestClient;
  beforeAll(async () => {
    k = await startTestKelvin();
  });
  afterAll(() => k?.close());

  async function keyColumns(): Promise<string[]> {
    if (dialectOf(k.db) === 'postgres') {
      const r = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.key_column_usage
        WHERE table_schema = current_schema() AND table_name = 'device_history' AND constraint_name = 'device_history_pk' ORDER BY ordinal_position`.execute(k.db);
      return r.rows.map((c) => c.column_name);
    }
    const r = await sql<{ name: string; pk: number }>`PRAGMA table_info(device_history)`.execute(k.db);
    return r.rows.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  }

  it('keeps every stored row and the idempotency of (device, field, ts) when it rebuilds the key', async () => {
    const rows = [
      { device_id: 1, field_code: 'f03', ts: 1000, num: 21.5, txt: null },
      { device_id: 1, field_code: 'f28', ts: 1000, num: null, txt: '06:30' },
      { device_id: 1, field_code: 'f03', ts: 2000, num: 22, txt: null },
      { device_id: 2, field_code: 'f03', ts: 1000, num: 19, txt: null },
    ];
    await k.db.insertInto('device_history').values(rows).execute();
    // run over a table that already holds data (the fresh database ran it on an empty one)
    await historyOrder.up(k.db);
    expect(await keyColumns()).toEqual(['device_id', 'ts', 'field_code']);
    const after = await k.db.selectFrom('device_history').selectAll().orderBy('device_id').orderBy('ts').orderBy('field_code').execute();
    expect(after.map((r) => ({ ...r, device_id: Number(r.device_id), ts: Number(r.ts) }))).toEqual([rows[0], rows[1], rows[2], rows[3]]);
    const again = await k.db.insertInto('device_history').values(rows[0]).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    expect(Number(again.numInsertedOrUpdatedRows ?? 0)).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contracts from '@kelvin/contracts';
import { DEVICE_TYPES, DICTIONARIES, DICTIONARY_BY_CODE } from '@kelvin/contracts';
import { snapshot, xlsxText } from '../admin/fixtures.ts';
import { startTestKelvin, twoTenants, type TestClient } from '../../test/harness.ts';

const CODES = ['dict', 'dict:btn_edit', 'dict:export'];

/**
 * Exported maps of contracts that are not enumerations shown to users (with the reason), so that the coverage test
 * below knows every other `*_LABELS` / `*_STATUS` / `*_KINDS` … export must be a dictionary.
 */
const NOT_DICTIONARIES: Record<string, string> = {
  ELEMENT_KINDS: 'button permission kinds of the menu editor (codes, not labels)',
  HTTP_METHODS: 'HTTP verbs of element URIs',
  IMPORT_MODEL_TYPES: 'Excel template names (the imports screen lists them)',
  REPAIR_PHOTO_TYPES: 'MIME types accepted for photos',
  REPAIR_STATUSES: 'the keys of REPAIR_STATUS (a dictionary)',
  REPAIR_PRIORITIES: 'the keys of REPAIR_PRIORITY (a dictionary)',
  REPAIR_ACTIONS: 'timeline verbs of one record, not a value stored and filtered on',
  COMMAND_STATUSES: 'the keys of COMMAND_STATUS_LABELS (a dictionary)',
  FINISHED_COMMAND_STATUSES: 'a subset of the command statuses',
  ADDRESS_CHANGE_STATUSES: 'the keys of ADDRESS_CHANGE_STATUS_LABELS (a dictionary)',
  FACTORY_RUN_STATUSES: 'the keys of FACTORY_RUN_STATUS_LABELS (a dictionary)',
  FACTORY_STEP_STATUSES: 'the keys of FACTORY_STEP_STATUS_LABELS (a dictionary)',
  SHARE_METHODS: 'a subset of the billing methods',
  BUILTIN_GROUP_TYPES: 'rows of the role-type screen, editable there',
  INGEST_COUNTER_LABELS: 'names of the service monitor\'s counters',
  LEDGER_KIND_BOOK: 'which book each ledger kind writes (a mapping, not labels)',
  DEVICE_TYPE_CODES: 'the codes of DEVICE_TYPES (a dictionary)',
  AREA_LEVELS: 'the keys of AREA_LEVEL_LABELS (a dictionary)',
  BIND_ACTIONS: 'the keys of BIND_ACTION_LABELS (a dictionary)',
  SENSOR_RANGES: 'plausible sensor ranges (numbers, not labels)',
  GATEWAY_TYPES: 'a subset of the device types',
  DEPOSIT_ACTIONS: 'deposit moves → ledger kinds (a mapping; the kinds are a dictionary)',
  UNKNOWN_STATUS: 'the one text shown for an unknown field value',
};
const ENUM_NAME = /_(LABELS|STATUS|STATUSES|KINDS|SEVERITIES|PRIORITY|PRIORITIES|METHODS|TYPES|TYPE2|SCHEMES|ROLES|PROVIDERS|BOOKS|ACTIONS)$/;

/** The value → label pairs of an exported registry, whatever its shape (map, list of {code,name} or {value,name}). */
function pairsOf(v: unknown): [string, string][] | null {
  if (Array.isArray(v)) {
    if (!v.every((x) => x && typeof x === 'object' && 'name' in x)) return null;
    return v.map((x) => [String(x.code ?? x.value), String(x.name)]);
  }
  if (v && typeof v === 'object' && !(v instanceof Set) && !(v instanceof Map) && Object.values(v).every((x) => typeof x === 'string')) {
    return Object.entries(v as Record<string, string>);
  }
  return null;
}

let k: TestClient;
let tokenA: string;
let tokenB: string;
beforeAll(async () => {
  k = await startTestKelvin();
  ({ tokenA, tokenB } = await twoTenants(k, 'dic', CODES));
});
afterAll(() => k?.close());

describe('数据字典：来自注册表', () => {
  it('every enumeration exported by contracts is a dictionary with exactly its items', () => {
    const registries = Object.entries(contracts).filter(([name]) => ENUM_NAME.test(name) && !(name in NOT_DICTIONARIES));
    expect(registries.length).toBeGreaterThan(30);
    const missing: string[] = [];
    for (const [name, value] of registries) {
      const pairs = pairsOf(value);
      if (!pairs) {
        missing.push(`${name}（不是名称表）`);
        continue;
      }
      const key = JSON.stringify(pairs);
      if (!DICTIONARIES.some((d) => JSON.stringify(d.items.map((i) => [i.value, i.label])) === key)) missing.push(name);
    }
    expect(missing).toEqual([]);
  });

  it('has the project types, projectType2, schemes 1–21, every device type and each type\'s fields with options, units and ranges', () => {
    expect(DICTIONARY_BY_CODE.get('projectType2')!.items.map((i) => i.value)).toEqual(['101', '102', '103', '104', '105']);
    expect(DICTIONARY_BY_CODE.get('billingScheme')!.items.map((i) => Number(i.value))).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(DICTIONARY_BY_CODE.get('billingScheme')!.items[0].description).toContain('report1、report4');
    expect(DICTIONARY_BY_CODE.get('deviceType')!.items.length).toBe(DEVICE_TYPES.length);
    for (const t of DEVICE_TYPES) expect(DICTIONARY_BY_CODE.get(`deviceField.${t.code}`)!.items.length).toBe(t.fields.length);
    const f01 = DICTIONARY_BY_CODE.get('deviceField.device20020')!.items.find((i) => i.value === 'f04')!;
    expect(f01.description).toMatch(/范围 \d+–\d+°C/);
    const power = DICTIONARY_BY_CODE.get('deviceField.device20020')!.items.find((i) => i.value === 'f00')!;
    expect(power.description).toContain('0 关机');
  });

  it('lists and searches over the API; export has every item', async () => {
    const all = await k.call('GET', '/api/v1/dict', { token: tokenA });
    expect(all.body.data.length).toBe(DICTIONARIES.length);
    const found = await k.call('GET', `/api/v1/dict?keyword=${encodeURIComponent('告警')}`, { token: tokenA });
    expect(found.body.data.map((d: { code: string }) => d.code)).toEqual(expect.arrayContaining(['alarmSeverity', 'alarmStatus']));
    const res = await k.kelvin.app.inject({ method: 'GET', url: '/api/v1/dict/export', headers: { authorization: tokenA } });
    expect(res.statusCode).toBe(200);
    const text = (await xlsxText(res.rawPayload)).join('\n');
    expect(text).toContain('alarmSeverity');
    expect(text).toContain('押金制固定费用');
  });
});

describe('数据字典：租户显示名称', () => {
  it('an override shows for its tenant only, in the dictionary and the labels; reset brings the default back', async () => {
    const set = await k.call('PUT', '/api/v1/dict/deviceType/override', { token: tokenA, body: { value: 'device20020', label: '地暖面板' } });
    expect(set.body.code).toBe(200);
    const item = set.body.data.items.find((i: { value: string }) => i.value === 'device20020');
    expect(item).toMatchObject({ label: '地暖面板', overridden: true });
    expect(item.defaultLabel).not.toBe('地暖面板');
    expect((await k.call('GET', '/api/v1/dict/labels', { token: tokenA })).body.data).toEqual({ deviceType: { device20020: '地暖面板' } });
    // tenant B sees the registry's name
    expect((await k.call('GET', '/api/v1/dict/labels', { token: tokenB })).body.data).toEqual({});
    const b = (await k.call('GET', '/api/v1/dict/deviceType', { token: tokenB })).body.data;
    expect(b.items.find((i: { value: string }) => i.value === 'device20020')).toMatchObject({ label: item.defaultLabel, overridden: false });
    // the list counts A's overrides
    const list = (await k.call('GET', '/api/v1/dict', { token: tokenA })).body.data;
    expect(list.find((d: { code: string }) => d.code === 'deviceType').overrides).toBe(1);

    const reset = await k.call('POST', '/api/v1/dict/deviceType/reset', { token: tokenA, body: { value: 'device20020' } });
    expect(reset.body.data.items.find((i: { value: string }) => i.value === 'device20020')).toMatchObject({ label: item.defaultLabel, overridden: false });
    expect((await k.call('GET', '/api/v1/dict/labels', { token: tokenA })).body.data).toEqual({});
    // both changes are in the gate log
    const log = await k.db.selectFrom('gate_log').select('operation').where('operation', 'like', '%字典%').execute();
    expect(log.map((l) => l.operation)).toEqual(expect.arrayContaining([expect.stringContaining('编辑字典显示名称'), expect.stringContaining('恢复字典默认名称')]));
  });

  it('refuses fixed dictionaries, unknown items and bad labels in Chinese, changing nothing', async () => {
    const before = await snapshot(k.db);
    const count = async () => (await k.db.selectFrom('dict_override').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n;
    const n = await count();
    const fixed = await k.call('PUT', '/api/v1/dict/billingScheme/override', { token: tokenA, body: { value: '1', label: '随便' } });
    expect(fixed.body).toMatchObject({ code: 40000, msg: expect.stringContaining('不能修改') });
    const unknown = await k.call('PUT', '/api/v1/dict/alarmSeverity/override', { token: tokenA, body: { value: 'nope', label: '随便' } });
    expect(unknown.body).toMatchObject({ code: 40000, msg: expect.stringContaining('没有字典项') });
    const empty = await k.call('PUT', '/api/v1/dict/alarmSeverity/override', { token: tokenA, body: { value: 'critical', label: '  ' } });
    expect(empty.body.code).toBe(40000);
    expect(empty.body.msg).toMatch(/显示名称/);
    const missing = await k.call('GET', '/api/v1/dict/nope', { token: tokenA });
    expect(missing.body.code).toBe(40400);
    expect(await count()).toBe(n);
    expect(await snapshot(k.db)).toBe(before);
  });
});

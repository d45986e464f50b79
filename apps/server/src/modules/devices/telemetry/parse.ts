import { formatTime, parseTime, roundToStep, type DeviceTypeDef, type FieldDef } from '@kelvin/contracts';
import { DEVICE_PROTOCOL } from '@kelvin/contracts/device-protocol';

/** One stored value: numbers in `num`, times and text in `txt`. */
export interface Point {
  code: string;
  num: number | null;
  txt: string | null;
}

export interface UpMessage {
  /** device time (ms), or the receive time when the device sent none or an impossible one */
  ts: number;
  clockFixed: boolean;
  points: Point[];
  /** values that could not be read (wrong type, too long) */
  droppedFields: number;
  /** readings refused by the registry: a field the type does not have, or a value outside its range; null when none */
  refused: RefusedField[] | null;
}

export interface RefusedField {
  code: string;
  reason: 'unknown_field' | 'out_of_range';
  detail: string;
}

export interface AckMessage {
  id: number;
  ok: boolean;
  error: string | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const CODE = /^[A-Za-z0-9_]{1,16}$/;
const MAX_FIELDS = DEVICE_PROTOCOL.maxFields;
const MIN_TS = Date.UTC(2000, 0, 1);
const MAX_SKEW_MS = DEVICE_PROTOCOL.maxClockSkewSeconds * 1000;

function json(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Field lookup per device type, built once: the ingest reads it for every value of every report. */
const lookups = new WeakMap<DeviceTypeDef, Map<string, FieldDef>>();
function fieldsOf(type: DeviceTypeDef): Map<string, FieldDef> {
  let m = lookups.get(type);
  if (!m) lookups.set(type, (m = new Map(type.fields.map((f) => [f.code, f]))));
  return m;
}

const show = (raw: unknown) => (typeof raw === 'string' ? raw.slice(0, 40) : JSON.stringify(raw)?.slice(0, 40));

/** A value as its field expects it; null when it cannot be one, a refusal when the registry rules it out. */
function toPoint(field: FieldDef, code: string, raw: unknown): Point | RefusedField | null {
  const value = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw;
  if (field.kind === 'time') {
    const t = parseTime(value);
    return t === null ? null : { code, num: null, txt: formatTime(t) };
  }
  if (field.kind === 'text') {
    return typeof value === 'string' && value.length <= (field.maxLength ?? 64) ? { code, num: null, txt: value } : null;
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return null;
  if (field.kind === 'enum' || field.kind === 'bool') {
    return field.options?.[String(n)] !== undefined ? { code, num: n, txt: null } : { code, reason: 'out_of_range', detail: `${code}=${show(raw)}（不是有效取值）` };
  }
  if ((field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max)) {
    return { code, reason: 'out_of_range', detail: `${code}=${show(raw)}（量程 ${field.min}～${field.max}）` };
  }
  return { code, num: roundToStep(field, n), txt: null };
}

/**
 * `{ ts, fields: { f04: 24, … } }` (design §7). Fields that cannot be read are dropped one by one, codes the type
 * does not have and values outside the field's range are refused one by one (the rest is kept); a message with
 * nothing readable is malformed. A missing or impossible ts is replaced by the receive time (and counted).
 */
export function parseUp(type: DeviceTypeDef, payload: Buffer, receivedAt: number): Parsed<UpMessage> {
  const body = json(payload);
  if (!isObject(body)) return { ok: false, reason: '不是 JSON 对象' };
  if (!isObject(body.fields)) return { ok: false, reason: '缺少 fields 对象' };
  const entries = Object.entries(body.fields);
  if (entries.length === 0) return { ok: false, reason: 'fields 为空' };
  if (entries.length > MAX_FIELDS) return { ok: false, reason: `字段超过 ${MAX_FIELDS} 个` };
  const fields = fieldsOf(type);
  const points: Point[] = [];
  let refused: RefusedField[] | null = null;
  let unreadable = 0;
  for (const [code, raw] of entries) {
    const field = fields.get(code);
    const p = field ? toPoint(field, code, raw) : CODE.test(code) ? ({ code, reason: 'unknown_field', detail: `${code}（该设备类型没有此字段）` } as const) : null;
    if (p === null) unreadable++;
    else if ('reason' in p) (refused ??= []).push(p);
    else points.push(p);
  }
  if (points.length === 0 && !refused) return { ok: false, reason: '没有可识别的字段值' };
  let ts = typeof body.ts === 'number' && Number.isFinite(body.ts) ? Math.round(body.ts < 1e11 ? body.ts * 1000 : body.ts) : NaN;
  const clockFixed = !(ts >= MIN_TS && ts <= receivedAt + MAX_SKEW_MS);
  if (clockFixed) ts = receivedAt;
  return { ok: true, value: { ts, clockFixed: clockFixed && body.ts !== undefined, points, droppedFields: unreadable, refused } };
}

/** `{ id, ok, error? }` */
export function parseAck(payload: Buffer): Parsed<AckMessage> {
  const body = json(payload);
  if (!isObject(body)) return { ok: false, reason: '不是 JSON 对象' };
  if (typeof body.id !== 'number' || !Number.isSafeInteger(body.id) || body.id <= 0) return { ok: false, reason: '缺少指令编号 id' };
  if (typeof body.ok !== 'boolean') return { ok: false, reason: '缺少 ok' };
  const error = typeof body.error === 'string' ? body.error.slice(0, DEVICE_PROTOCOL.maxAckErrorLength) : null;
  return { ok: true, value: { id: body.id, ok: body.ok, error } };
}

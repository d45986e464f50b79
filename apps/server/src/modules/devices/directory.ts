import { DEVICE_TYPE_BY_CODE, type DeviceTypeDef } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { secretMatches } from './credentials.ts';

/** What the MQTT side needs to know about a device, looked up by its code (the client id). */
export interface DeviceContext {
  id: number;
  code: string;
  tenantId: number;
  tenantCode: string;
  projectId: number;
  type: DeviceTypeDef;
  secretHash: string;
  /** device and tenant enabled */
  enabled: boolean;
  /** `kelvin/{tenantCode}/{deviceCode}/` */
  prefix: string;
}

const TTL_MS = 30_000;
const MISS_TTL_MS = 5_000;

/** A device context as it crosses to the broker thread: the type by its code (the registry is on both sides). */
export type WireContext = Omit<DeviceContext, 'type'> & { typeCode: string };

export const toWire = ({ type, ...rest }: DeviceContext): WireContext => ({ ...rest, typeCode: type.code });

export function fromWire({ typeCode, ...rest }: WireContext): DeviceContext | null {
  const type = DEVICE_TYPE_BY_CODE.get(typeCode);
  return type ? { ...rest, type } : null;
}

/**
 * Code → device context with a short cache over `load`: at thousands of messages per second the ingest path cannot
 * ask the database about every one. The main thread loads from the database; the broker thread asks the main thread
 * (telemetry/broker-thread.ts), and is told when a context is forgotten here.
 */
export function createContextCache(load: (code: string) => Promise<DeviceContext | null>) {
  const cache = new Map<string, { ctx: DeviceContext | null; at: number }>();
  const loading = new Map<string, Promise<DeviceContext | null>>();

  async function byCode(code: string): Promise<DeviceContext | null> {
    const hit = cache.get(code);
    const now = Date.now();
    if (hit && now - hit.at < (hit.ctx ? TTL_MS : MISS_TTL_MS)) return hit.ctx;
    let p = loading.get(code);
    if (!p) {
      p = load(code).finally(() => loading.delete(code));
      loading.set(code, p);
    }
    const ctx = await p;
    cache.set(code, { ctx, at: now });
    if (cache.size > 200_000) cache.clear(); // bounded: a flood of unknown codes cannot grow it forever
    return ctx;
  }

  return {
    byCode,
    /** device code + secret → context, or null (unknown, wrong secret, disabled) */
    async authenticate(code: string, password: Buffer | string): Promise<DeviceContext | null> {
      const good = (ctx: DeviceContext | null) => !!ctx && ctx.enabled && secretMatches(ctx.secretHash, password);
      let ctx = await byCode(code);
      if (good(ctx)) return ctx;
      // the cache may predate a reissue in another process: ask the database once more before refusing
      cache.delete(code);
      ctx = await byCode(code);
      return good(ctx) ? ctx : null;
    },
    invalidate(code: string) {
      cache.delete(code);
    },
    /** Forgets every cached device; answers how many were cached. */
    clear(): number {
      const n = cache.size;
      cache.clear();
      return n;
    },
  };
}

export type ContextCache = ReturnType<typeof createContextCache>;

/**
 * The device directory of the main thread: the context cache over the database. Changes made here (credentials,
 * disable, delete) invalidate at once, here and in the broker thread (`onForget`); another process sees them within
 * TTL_MS.
 */
export function createDeviceDirectory(db: Db) {
  const contexts = () => db.selectFrom('device')
    .innerJoin('tenant', 'tenant.id', 'device.tenant_id')
    .select(['device.id', 'device.device_code', 'device.tenant_id', 'tenant.code as tenant_code', 'device.project_id', 'device.device_type',
      'device.secret_hash', 'device.enabled', 'tenant.enabled as tenant_enabled']);
  type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof contexts>['executeTakeFirst']>>>;

  function toContext(row: Row): DeviceContext | null {
    const type = DEVICE_TYPE_BY_CODE.get(row.device_type);
    if (!type) return null;
    return {
      id: row.id,
      code: row.device_code,
      tenantId: row.tenant_id,
      tenantCode: row.tenant_code,
      projectId: row.project_id,
      type,
      secretHash: row.secret_hash,
      enabled: row.enabled === 1 && row.tenant_enabled === 1,
      prefix: `kelvin/${row.tenant_code}/${row.device_code}/`,
    };
  }

  /** the context as the database has it now (no cache) */
  async function load(code: string): Promise<DeviceContext | null> {
    const row = await contexts().where('device.device_code', '=', code).executeTakeFirst();
    return row ? toContext(row) : null;
  }

  const cache = createContextCache(load);
  const forgetListeners: ((code: string | null) => void)[] = [];
  const forgot = (code: string | null) => {
    for (const l of forgetListeners) l(code);
  };

  return {
    byCode: cache.byCode,
    authenticate: cache.authenticate,
    load,
    /**
     * Every device's context in code order, a page after `afterCode` (an external broker's full re-sync; not cached);
     * `next` is the code to continue after, null at the end.
     */
    async page(afterCode: string, limit: number): Promise<{ devices: DeviceContext[]; next: string | null }> {
      const rows = await contexts().where('device.device_code', '>', afterCode).orderBy('device.device_code').limit(limit).execute();
      return { devices: rows.map(toContext).filter((c): c is DeviceContext => c !== null), next: rows.length === limit ? rows[rows.length - 1].device_code : null };
    },
    invalidate(code: string) {
      cache.invalidate(code);
      forgot(code);
    },
    /** Forgets every cached device (iot reload); answers how many were cached. */
    clear(): number {
      forgot(null);
      return cache.clear();
    },
    /** a cached context was forgotten (null: all of them) */
    onForget(listener: (code: string | null) => void) {
      forgetListeners.push(listener);
    },
  };
}

export type DeviceDirectory = ReturnType<typeof createDeviceDirectory>;

import { SYSTEM_PARAMS, SYSTEM_PARAM_DEFAULTS, type SystemParams } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { invalid } from '../../lib/errors.ts';

const KEYS = new Set<string>(SYSTEM_PARAMS.map((p) => p.key));

/**
 * System parameters of a tenant (setting_n; spec §7.5 getSystemParam / editSystemParam). Unset keys take the
 * defaults of contracts/system.ts; other domains read them with `params(tenantId)`.
 */
export function createSystemParamService(db: Db) {
  async function params(tenantId: number): Promise<SystemParams> {
    const rows = await db.selectFrom('system_param').select(['key', 'value']).where('tenant_id', '=', tenantId).execute();
    const out: Record<string, unknown> = { ...SYSTEM_PARAM_DEFAULTS };
    for (const r of rows) {
      if (!KEYS.has(r.key)) continue;
      try {
        out[r.key] = JSON.parse(r.value);
      } catch {
        // a value that cannot be read keeps the default rather than breaking every consumer
      }
    }
    return out as unknown as SystemParams;
  }

  return {
    params,

    async edit(tenantId: number, patch: Partial<SystemParams>): Promise<SystemParams> {
      const next = { ...(await params(tenantId)), ...patch };
      if (next.balanceWarn2 > next.balanceWarn1) throw invalid('二级余额预警不能高于一级余额预警', ['balanceWarn2']);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined) continue;
          const v = JSON.stringify(value);
          await trx.insertInto('system_param').values({ tenant_id: tenantId, key, value: v, updated_at: now })
            .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ value: v, updated_at: now })).execute();
        }
      });
      return params(tenantId);
    },
  };
}

export type SystemParamService = ReturnType<typeof createSystemParamService>;

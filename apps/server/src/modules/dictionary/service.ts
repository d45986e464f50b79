import { DICTIONARIES, DICTIONARY_BY_CODE, type DictDef, type DictDto, type DictLabels, type DictOverrideBody, type DictSummary } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';

type Overrides = Map<string, Map<string, string>>;

/**
 * 数据字典: the registries of packages/contracts as dictionaries, with the caller's tenant's display names laid over
 * the items of the overridable ones. The defaults are never stored: only a tenant's own names are (dict_override).
 */
export function createDictionaryService(db: Db) {
  async function overridesOf(tenantId: number, code?: string): Promise<Overrides> {
    let q = db.selectFrom('dict_override').select(['dict_code', 'item_value', 'label']).where('tenant_id', '=', tenantId);
    if (code) q = q.where('dict_code', '=', code);
    const out: Overrides = new Map();
    for (const r of await q.execute()) {
      if (!out.has(r.dict_code)) out.set(r.dict_code, new Map());
      out.get(r.dict_code)!.set(r.item_value, r.label);
    }
    return out;
  }

  function view(def: DictDef, mine: Map<string, string> | undefined): DictDto {
    // a stored name of an item the registry no longer has is ignored, not shown
    const items = def.items.map((i) => {
      const own = def.overridable ? mine?.get(i.value) : undefined;
      return { ...i, label: own ?? i.label, defaultLabel: i.label, overridden: own !== undefined };
    });
    return { code: def.code, name: def.name, description: def.description, overridable: def.overridable, items, overrides: items.filter((i) => i.overridden).length };
  }

  function defOf(code: string): DictDef {
    const def = DICTIONARY_BY_CODE.get(code);
    if (!def) throw notFound('字典');
    return def;
  }

  function itemOf(def: DictDef, value: string) {
    if (!def.overridable) throw invalid(`「${def.name}」的名称由平台统一定义，不能修改`, ['value']);
    const item = def.items.find((i) => i.value === value);
    if (!item) throw invalid(`「${def.name}」中没有字典项 ${value}`, ['value']);
    return item;
  }

  return {
    async list(actor: Actor, keyword?: string): Promise<DictSummary[]> {
      const mine = await overridesOf(actor.user.tenantId);
      const k = keyword?.toLowerCase();
      return DICTIONARIES
        .filter((d) => !k || d.code.toLowerCase().includes(k) || d.name.includes(keyword!) || d.items.some((i) => i.label.includes(keyword!) || i.value.toLowerCase() === k))
        .map((d) => {
          const { items, ...rest } = view(d, mine.get(d.code));
          return { ...rest, itemCount: items.length };
        });
    },

    async get(actor: Actor, code: string): Promise<DictDto> {
      const def = defOf(code);
      return view(def, (await overridesOf(actor.user.tenantId, code)).get(code));
    },

    /** Every dictionary as the tenant sees it (the export). */
    async all(actor: Actor): Promise<DictDto[]> {
      const mine = await overridesOf(actor.user.tenantId);
      return DICTIONARIES.map((d) => view(d, mine.get(d.code)));
    },

    /** The tenant's own names only: dictionary → value → label (what the screens lay over the registries' names). */
    async labels(tenantId: number): Promise<DictLabels> {
      const mine = await overridesOf(tenantId);
      const out: DictLabels = {};
      for (const [code, items] of mine) {
        if (!DICTIONARY_BY_CODE.get(code)?.overridable) continue;
        out[code] = Object.fromEntries(items);
      }
      return out;
    },

    async setOverride(actor: Actor, code: string, body: DictOverrideBody): Promise<DictDto> {
      const def = defOf(code);
      const item = itemOf(def, body.value);
      const tenantId = actor.user.tenantId;
      const now = Date.now();
      if (body.label === item.label) {
        // the default name again: no override to keep
        await db.deleteFrom('dict_override').where('tenant_id', '=', tenantId).where('dict_code', '=', code).where('item_value', '=', body.value).execute();
      } else {
        await db.insertInto('dict_override')
          .values({ tenant_id: tenantId, dict_code: code, item_value: body.value, label: body.label, updated_by: actor.user.username, updated_at: now })
          .onConflict((oc) => oc.columns(['tenant_id', 'dict_code', 'item_value']).doUpdateSet({ label: body.label, updated_by: actor.user.username, updated_at: now }))
          .execute();
      }
      return this.get(actor, code);
    },

    async reset(actor: Actor, code: string, value: string): Promise<DictDto> {
      const def = defOf(code);
      itemOf(def, value);
      await db.deleteFrom('dict_override').where('tenant_id', '=', actor.user.tenantId).where('dict_code', '=', code).where('item_value', '=', value).execute();
      return this.get(actor, code);
    },
  };
}

export type DictionaryService = ReturnType<typeof createDictionaryService>;

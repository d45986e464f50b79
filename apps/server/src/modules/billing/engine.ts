import {
  BILLING_METHODS, DEFAULT_DEVICE_PARAMS, DEVICE_TYPE_BY_CODE, METHOD_FIELDS, SHARE_METHODS, TOU_KINDS, fenToYuan, localMidnight, localParts, schemeOf,
  type BillingMethod, type QuoteLine, type RunGap, type RunResult, type ShareBasis, type TariffDoc, type TouKind,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { systemScope } from '../../lib/scope.ts';
import type { AccountService, BillingAccount } from '../accounts/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { BillingConfig, DeviceParams, DevicePlan, ShareTeam, TariffVersion } from './config.ts';
import { amountFen, heatTwoPartLines, ladderLines, onOffTimeAreaLines, quantize, scaleFen, scaleQuantity, shareLines, timeEquivalent, touKindAt } from './formulas.ts';
import { cstTime } from '../../lib/excel.ts';
import { fromMicro, meterUse, type MeterUse, type Point } from './meter.ts';

const DAY_MS = 86_400_000;
/** how far back the first run looks for a counter's reading at the period start */
const START_LOOKBACK_MS = 35 * DAY_MS;
/** a silence longer than this between two readings (or at the end) is reported on the run */
const MIN_GAP_MS = 2 * 3600_000;
/** devices read per batch (memory stays flat whatever the project's size) */
const DEVICE_BATCH = 100;
/** gaps stored per run (a project with thousands of silent meters gets the first ones and a count) */
const MAX_GAPS = 500;
/** plant meters (share teams' total and public devices): the first counter the type has */
const PLANT_FIELDS = ['f70', 'f48', 'f60'];

/** The overtime pool of a project for a month (automation): each room's overtime hours used outside its program's standard hours. */
export type OvertimeLookup = (tenantId: number, projectId: number, month: string) => Promise<{ areaId: number; usedHours: number; approvedHours: number }[]>;

/** Holidays of a project between two local dates (the system calendar), for TOU. */
export type HolidayLookup = (tenantId: number, projectId: number, start: string, end: string) => Promise<{ date: string; type: string }[]>;

interface Device { id: number; tenantId: number; name: string; type: string; fields: Set<string> }
interface Segment { from: number; until: number; version: TariffVersion; index: number }
interface NewLine { accountId: number; deviceId: number | null; method: string; label: string; quantity: number; unit: string; unitPrice: string; amountFen: number; basis?: ShareBasis }

/** "2026-10-01 08:00" in Shanghai time, for the notes on a run */
const cstDateTime = (ms: number) => cstTime(ms).slice(0, 16);
/** the answer when nothing was billed: no such project, no open account yet, or nothing new since the last run */
const NOTHING: RunResult = { runId: null, accounts: 0, lines: 0, totalFen: 0 };

/**
 * Charge runs (design §8): one run per project and period start, claimed by a unique row; readings turned
 * into uses per device (meter.ts), uses priced by the tariff in force (formulas.ts), lines written once per account
 * (unique run × account × seq), and for prepaid schemes one idempotent ledger charge per account. A run that died is
 * resumed by the next call and ends with the same lines and charges as one clean run.
 */
export function createEngine(deps: { db: Db; config: BillingConfig; core: DeviceCore; accounts: AccountService; holidays?: HolidayLookup; overtime?: OvertimeLookup }) {
  const { db, config, core, accounts } = deps;
  const inFlight = new Map<number, Promise<RunResult>>();

  async function projectRow(projectId: number) {
    return db.selectFrom('area').select(['id', 'tenant_id', 'name', 'level']).where('id', '=', projectId).executeTakeFirst();
  }

  const figures = (r: { id: number; accounts: number; lines: number; total_fen: number }): RunResult =>
    ({ runId: r.id, accounts: Number(r.accounts), lines: Number(r.lines), totalFen: Number(r.total_fen) });

  /** Runs the project up to `until`: resumes an unfinished run first, then claims the next period. */
  async function run(projectId: number, until: number, trigger: string): Promise<RunResult> {
    const busy = inFlight.get(projectId);
    if (busy) await busy.catch(() => undefined);
    const p = runLocked(projectId, until, trigger);
    inFlight.set(projectId, p);
    try {
      return await p;
    } finally {
      if (inFlight.get(projectId) === p) inFlight.delete(projectId);
    }
  }

  async function runLocked(projectId: number, until: number, trigger: string): Promise<RunResult> {
    const project = await projectRow(projectId);
    if (!project || project.level !== 'project') return NOTHING;
    for (let attempt = 0; attempt < 1000; attempt++) {
      const last = await db.selectFrom('billing_run').selectAll().where('project_id', '=', projectId).orderBy('period_until', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (last?.state === 'running') {
        await execute(last.id);
        continue;
      }
      const from = last ? Number(last.period_until) : await firstFrom(projectId);
      if (from === null || until <= from) {
        return last && Number(last.period_until) >= until ? figures(last) : NOTHING;
      }
      const version = await config.tariffAt(projectId, until);
      const claimed = await db.insertInto('billing_run').values({
        tenant_id: project.tenant_id, project_id: projectId, scheme: version.doc.scheme, period_from: from, period_until: until, state: 'running',
        accounts: 0, lines: 0, total_fen: 0, gaps: '[]', trigger, started_at: Date.now(), finished_at: null,
      }).onConflict((oc) => oc.columns(['project_id', 'period_from']).doNothing()).returning('id').executeTakeFirst();
      if (!claimed) continue; // another process claimed this period: it is running now — loop to resume or read it
      await execute(claimed.id);
      const done = await db.selectFrom('billing_run').selectAll().where('id', '=', claimed.id).executeTakeFirstOrThrow();
      return figures(done);
    }
    throw new Error('billing run did not settle');
  }

  /** The first run of a project starts when its first active account was opened. */
  async function firstFrom(projectId: number): Promise<number | null> {
    const row = await db.selectFrom('account').select((eb) => eb.fn.min('created_at').as('first')).where('project_id', '=', projectId).where('status', '=', 'active').executeTakeFirst();
    return row?.first == null ? null : Number(row.first);
  }

  // ------------------------------------------------------------------------------------------------ one run

  async function execute(runId: number): Promise<void> {
    const runRow = await db.selectFrom('billing_run').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    if (runRow.state === 'done') return;
    const projectId = Number(runRow.project_id);
    const tenantId = Number(runRow.tenant_id);
    const from = Number(runRow.period_from);
    const until = Number(runRow.period_until);
    const scope = systemScope(tenantId);

    const versions = await config.tariffVersions(projectId, from, until);
    const segments: Segment[] = versions.map((v, i) => ({
      from: i === 0 ? from : Math.max(from, v.effectiveFrom), until: i + 1 < versions.length ? Math.min(until, versions[i + 1]!.effectiveFrom) : until, version: v, index: i,
    })).filter((s) => s.until > s.from);
    const segAt = (ts: number) => segments.find((s) => ts > s.from && ts <= s.until) ?? segments[segments.length - 1]!;
    const holidays = new Set<string>();
    if (deps.holidays && segments.some((s) => s.version.doc.tou.enabled && s.version.doc.tou.holidayKind)) {
      for (const d of await deps.holidays(tenantId, projectId, localParts(from).date, localParts(until).date)) if (d.type === 'holiday') holidays.add(d.date);
    }
    const kindAt = (doc: TariffDoc, ts: number): TouKind => (doc.tou.enabled ? touKindAt(ts, doc.tou, holidays.has(localParts(ts).date)) : 'flat');
    const cycleOf = (doc: TariffDoc, ts: number) => {
      const p = localParts(ts - 1);
      if (doc.ladder.cycle === 'month') return `${p.year}-${String(p.month).padStart(2, '0')}`;
      return String(p.month >= doc.ladder.startMonth ? p.year : p.year - 1);
    };
    // a step's use belongs to the interval it was consumed in: the instant just before its end reading
    // (the TOU kind and the ladder cycle change at most once a minute: cached per minute — a month is 43,200 entries)
    const minuteKeys = new Map<number, string>();
    const bucketOf = (ts: number) => {
      const s = segAt(ts);
      const minute = Math.floor((ts - 1) / 60_000);
      const cacheKey = minute * 64 + s.index;
      let key = minuteKeys.get(cacheKey);
      if (key === undefined) {
        key = `${s.index}|${kindAt(s.version.doc, ts - 1)}|${cycleOf(s.version.doc, ts)}`;
        minuteKeys.set(cacheKey, key);
      }
      return key;
    };

    // who is billed: active accounts, their devices (named on the account or in its rooms), share teams
    const billed = (await accounts.billingAccounts(projectId)).filter((a) => a.createdAt < until);
    const roomIds = billed.flatMap((a) => a.rooms.map((r) => r.id));
    const explicit = billed.flatMap((a) => a.deviceIds);
    const deviceRows = roomIds.length || explicit.length
      ? await core.devices.scopedDevices(scope).select(['id', 'tenant_id', 'area_id', 'device_type', 'device_name']).where('project_id', '=', projectId)
        .where((eb) => eb.or([eb('area_id', 'in', roomIds.length ? roomIds : [-1]), eb('id', 'in', explicit.length ? explicit : [-1])])).orderBy('id').execute()
      : [];
    const teams = segments.some((s) => SHARE_METHODS.has(schemeOf(s.version.doc.scheme)?.method ?? 'timeEquivalent')) ? await config.shareTeams(projectId) : [];
    const plantIds = new Set(teams.flatMap((t) => [...t.totalDeviceIds, ...t.publicDeviceIds]));
    const plantRows = plantIds.size ? await core.devices.scopedDevices(scope).select(['id', 'tenant_id', 'area_id', 'device_type', 'device_name']).where('id', 'in', [...plantIds]).execute() : [];
    const toDevice = (d: { id: number; tenant_id: number; device_type: string; device_name: string }): Device =>
      ({ id: d.id, tenantId: d.tenant_id, name: d.device_name, type: d.device_type, fields: new Set(DEVICE_TYPE_BY_CODE.get(d.device_type)?.fields.map((f) => f.code) ?? []) });
    const devices = new Map<number, Device>([...deviceRows, ...plantRows].map((d) => [d.id, toDevice(d)]));

    const accountDevices = new Map<number, number[]>();
    const ownerOf = new Map<number, number>();
    for (const a of billed) for (const id of a.deviceIds) if (devices.has(id) && !ownerOf.has(id)) ownerOf.set(id, a.id);
    const roomOwner = new Map<number, number>();
    for (const a of billed) for (const r of a.rooms) roomOwner.set(r.id, a.id);
    for (const d of deviceRows) if (!ownerOf.has(d.id) && d.area_id !== null && roomOwner.has(d.area_id) && !plantIds.has(d.id)) ownerOf.set(d.id, roomOwner.get(d.area_id)!);
    for (const [dev, acc] of ownerOf) accountDevices.set(acc, [...(accountDevices.get(acc) ?? []), dev]);

    const memberIds = [...ownerOf.keys()];
    const plans = memberIds.length ? await config.devicePlansAt(memberIds, until) : new Map<number, DevicePlan>();
    const params = memberIds.length ? await config.deviceParamsAt(memberIds, until) : new Map<number, DeviceParams>();
    const methodsInRun = new Set<BillingMethod>(segments.map((s) => schemeOf(s.version.doc.scheme)?.method ?? 'timeEquivalent'));
    for (const p of plans.values()) methodsInRun.add(p.method);
    const memberFields = [...new Set([...methodsInRun].flatMap((m) => METHOD_FIELDS[m].fields))];

    // phase 1: the use of every counter, a batch of devices at a time, recorded as the run's readings
    const uses = new Map<number, Map<string, MeterUse>>();
    const gaps: RunGap[] = [];
    let gapCount = 0;
    const gap = (g: RunGap) => {
      gapCount++;
      if (gaps.length < MAX_GAPS) gaps.push(g);
    };
    const prevRun = await db.selectFrom('billing_run').select('id').where('project_id', '=', projectId).where('period_until', '=', from).where('state', '=', 'done').executeTakeFirst();
    const createdOf = new Map(billed.map((a) => [a.id, a.createdAt]));
    const all = [...devices.values()];
    for (let i = 0; i < all.length; i += DEVICE_BATCH) {
      const batch = all.slice(i, i + DEVICE_BATCH);
      const ids = batch.map((d) => d.id);
      const fieldsOf = (d: Device) => (plantIds.has(d.id) ? PLANT_FIELDS.filter((f) => d.fields.has(f)).slice(0, 1) : memberFields.filter((f) => d.fields.has(f)));
      const fields = [...new Set(batch.flatMap(fieldsOf))];
      if (!fields.length) continue;
      const starts = new Map<string, Point>();
      if (prevRun) {
        for (const r of await db.selectFrom('billing_reading').select(['device_id', 'field_code', 'end_ts', 'end_value']).where('run_id', '=', prevRun.id).where('device_id', 'in', ids).execute()) {
          if (r.end_ts !== null && r.end_value !== null) starts.set(`${r.device_id}|${r.field_code}`, { ts: Number(r.end_ts), v: r.end_value });
        }
      }
      const missing = ids.filter((id) => fieldsOf(devices.get(id)!).some((f) => !starts.has(`${id}|${f}`)));
      for (const r of await core.devices.readingsAt(missing, fields, from, START_LOOKBACK_MS)) {
        const k = `${r.device_id}|${r.field_code}`;
        if (!starts.has(k)) starts.set(k, { ts: Number(r.ts), v: r.num });
      }
      // an account opened during the period: its devices count from its opening
      const lateOpened = ids.filter((id) => ownerOf.has(id) && createdOf.get(ownerOf.get(id)!)! > from);
      for (const id of lateOpened) {
        const at = createdOf.get(ownerOf.get(id)!)!;
        for (const r of await core.devices.readingsAt([id], fields, at, START_LOOKBACK_MS)) starts.set(`${r.device_id}|${r.field_code}`, { ts: Number(r.ts), v: r.num });
      }
      // the readings come ordered by device, field, time: one array per run of equal (device, field)
      const points = new Map<string, Point[]>();
      let list: Point[] = [];
      let lastDevice = -1;
      let lastField = '';
      for (const r of await core.devices.readingsIn(ids, fields, from, until)) {
        if (r.device_id !== lastDevice || r.field_code !== lastField) {
          lastDevice = r.device_id;
          lastField = r.field_code;
          list = [];
          points.set(`${lastDevice}|${lastField}`, list);
        }
        list.push({ ts: Number(r.ts), v: r.num });
      }
      const readingRows: { run_id: number; device_id: number; field_code: string; start_ts: number | null; start_value: number | null; end_ts: number | null; end_value: number | null; use: number }[] = [];
      for (const d of batch) {
        const acc = ownerOf.get(d.id);
        const devFrom = acc !== undefined ? Math.max(from, createdOf.get(acc)!) : from;
        const heartbeat = (DEVICE_TYPE_BY_CODE.get(d.type)?.heartbeatSeconds ?? 600) * 1000;
        const m = new Map<string, MeterUse>();
        for (const f of fieldsOf(d)) {
          const k = `${d.id}|${f}`;
          const all = points.get(k) ?? [];
          const u = meterUse(starts.get(k) ?? null, devFrom > from ? all.filter((p) => p.ts > devFrom) : all, bucketOf, { from: devFrom, until, gapMs: Math.max(MIN_GAP_MS, 2 * heartbeat) });
          m.set(f, u);
          readingRows.push({ run_id: runId, device_id: d.id, field_code: f, start_ts: u.start?.ts ?? null, start_value: u.start?.v ?? null, end_ts: u.end?.ts ?? null, end_value: u.end?.v ?? null, use: fromMicro(u.total) });
          const base = { accountId: acc ?? null, deviceId: d.id, deviceName: d.name, fieldCode: f };
          // a period shorter than the device's heartbeat window may well hold no report: that is no gap
          if (u.silent && until - devFrom > heartbeat) gap({ ...base, kind: 'noReading', from: devFrom, to: until, note: `${d.name} ${f} 在本期没有读数，用量待读数到达后计入下一期` });
          else for (const g of u.gaps) gap({ ...base, kind: 'stale', from: g.from, to: g.to, note: `${d.name} ${f} 读数中断 ${cstDateTime(g.from)} ～ ${cstDateTime(g.to)}` });
          for (const r of u.resets) gap({ ...base, kind: 'reset', from: r.ts, to: r.ts, note: `${d.name} ${f} 读数由 ${r.from} 变为 ${r.to}（换表或清零）：新表从首个读数起计，换表前未抄到的用量未计费` });
        }
        uses.set(d.id, m);
      }
      for (let j = 0; j < readingRows.length; j += 500) {
        await db.insertInto('billing_reading').values(readingRows.slice(j, j + 500)).onConflict((oc) => oc.columns(['run_id', 'device_id', 'field_code']).doNothing()).execute();
      }
    }

    // phase 2: price each account's use
    const bucketUse = (deviceId: number, field: string, seg: number, kind?: TouKind, cycle?: string) => {
      const u = uses.get(deviceId)?.get(field);
      if (!u) return 0;
      let sum = 0;
      for (const [key, v] of u.buckets) {
        const [s, k, c] = key.split('|');
        if (Number(s) === seg && (kind === undefined || k === kind) && (cycle === undefined || c === cycle)) sum += v;
      }
      return fromMicro(sum);
    };
    const keysOf = (deviceIds: number[], seg: number) => {
      const kinds = new Set<TouKind>();
      const cycles = new Set<string>();
      for (const id of deviceIds) for (const u of uses.get(id)?.values() ?? []) for (const key of u.buckets.keys()) {
        const [s, k, c] = key.split('|');
        if (Number(s) === seg) {
          kinds.add(k as TouKind);
          cycles.add(c!);
        }
      }
      return { kinds: [...kinds].sort(), cycles: [...cycles].sort() };
    };
    const paramOf = (id: number) => params.get(id) ?? DEFAULT_DEVICE_PARAMS;
    /** T_eq of a device in a bucket: Σ k × t over fan speeds, or the valve-open hours of types without fan speeds */
    const teq = (d: Device, doc: TariffDoc, seg: number, kind?: TouKind) => {
      if (d.fields.has('f20')) return timeEquivalent({ low: bucketUse(d.id, 'f20', seg, kind), mid: bucketUse(d.id, 'f21', seg, kind), high: bucketUse(d.id, 'f22', seg, kind) }, doc.k);
      return quantize(bucketUse(d.id, 'f30', seg, kind));
    };
    const qtyOf = (d: Device, method: BillingMethod, doc: TariffDoc, seg: number, kind?: TouKind, cycle?: string): number => {
      const p = paramOf(d.id);
      switch (method) {
        case 'timeEquivalent': case 'shareTime': case 'shareMixed': return scaleQuantity(teq(d, doc, seg, kind), p.chargeRate);
        case 'energyEquivalent': case 'shareEnergy': return scaleQuantity(scaleQuantity(teq(d, doc, seg, kind), p.ratedPower), p.chargeRate);
        case 'heat': case 'heatTwoPart': return scaleQuantity(bucketUse(d.id, 'f60', seg, kind), p.chargeRate);
        case 'ladder': return scaleQuantity(scaleQuantity(bucketUse(d.id, 'f70', seg, kind, cycle), doc.electric.multiplier), p.chargeRate);
        case 'onOffTimeArea': return scaleQuantity(bucketUse(d.id, 'f30', seg, kind), p.chargeRate);
        default: return 0;
      }
    };
    const plantUseFen = (ids: number[], doc: TariffDoc, seg: number) => {
      let fen = 0;
      for (const id of ids) {
        const d = devices.get(id);
        const f = d && PLANT_FIELDS.find((x) => d.fields.has(x));
        if (!f) continue;
        for (const kind of keysOf([id], seg).kinds) fen += amountFen(bucketUse(id, f, seg, kind), doc.tou.enabled ? doc.tou.prices[kind] : doc.price);
      }
      return fen;
    };

    const lines = new Map<number, NewLine[]>(billed.map((a) => [a.id, []]));
    const push = (l: NewLine) => lines.get(l.accountId)?.push(l);
    const multi = segments.length > 1;
    const segLabel = (s: Segment) => (multi ? `（${cstDateTime(s.from)}起）` : '');
    const lastMethod = schemeOf(segments[segments.length - 1]?.version.doc.scheme)?.method;
    for (const a of billed) if (!accountDevices.get(a.id)?.length && lastMethod && lastMethod !== 'flat' && lastMethod !== 'shareArea') {
      gap({ accountId: a.id, deviceId: null, deviceName: null, fieldCode: null, kind: 'noDevice', from, to: until, note: `账户「${a.name}」的房间内没有计费设备` });
    }
    const planned = (id: number) => plans.get(id);
    const own = (a: BillingAccount) => (accountDevices.get(a.id) ?? []).filter((id) => !planned(id));
    const shareTeamLines = (t: ShareTeam, inputs: { id: number; equivalent: number; area: number }[], m: BillingMethod, d: TariffDoc, seg: number): QuoteLine[] => {
      const totalFen = plantUseFen(t.totalDeviceIds, d, seg);
      const publicFen = m === 'shareArea' ? totalFen : m === 'shareMixed' ? scaleFen(totalFen, d.share.publicRatio) : Math.min(totalFen, plantUseFen(t.publicDeviceIds, d, seg));
      return shareLines(totalFen, publicFen, inputs);
    };

    for (const s of segments) {
      const doc = s.version.doc;
      const method = schemeOf(doc.scheme)?.method ?? 'timeEquivalent';
      const unit = METHOD_FIELDS[method].unit;
      // devices on a metering plan are billed by their plan, whatever the scheme
      for (const a of billed) {
        for (const id of accountDevices.get(a.id) ?? []) {
          const plan = planned(id);
          const d = devices.get(id)!;
          if (!plan || plan.method === 'flat') continue;
          const q = plan.method === 'ladder' ? qtyOf(d, 'ladder', doc, s.index) : qtyOf(d, plan.method, doc, s.index);
          if (q > 0) push({ accountId: a.id, deviceId: id, method: plan.method, label: `${d.name}（${plan.name}）${segLabel(s)}`, quantity: q, unit: METHOD_FIELDS[plan.method].unit, unitPrice: plan.price, amountFen: amountFen(q, plan.price) });
        }
      }
      if (method === 'timeEquivalent' || method === 'energyEquivalent' || method === 'heat' || method === 'heatTwoPart') {
        const unitPrice = (k: TouKind) => (method === 'heatTwoPart' ? doc.heat.heatPrice : doc.tou.enabled ? doc.tou.prices[k] : doc.price);
        for (const a of billed) {
          for (const id of own(a)) {
            const d = devices.get(id)!;
            for (const kind of keysOf([id], s.index).kinds) {
              const q = qtyOf(d, method, doc, s.index, kind);
              if (q <= 0) continue;
              const touLabel = doc.tou.enabled && method !== 'heatTwoPart' ? `（${TOU_KINDS[kind]}）` : method === 'heatTwoPart' ? '（计量热费）' : '';
              push({ accountId: a.id, deviceId: id, method, label: `${d.name}${touLabel}${segLabel(s)}`, quantity: q, unit, unitPrice: unitPrice(kind), amountFen: amountFen(q, unitPrice(kind)) });
            }
          }
        }
      } else if (method === 'ladder') {
        for (const a of billed) {
          const ids = own(a);
          for (const cycle of keysOf(ids, s.index).cycles) {
            let use = 0;
            for (const id of ids) use += qtyOf(devices.get(id)!, 'ladder', doc, s.index, undefined, cycle);
            use = quantize(use);
            if (use <= 0) continue;
            const usedBefore = await ladderUsedBefore(a.id, doc, cycle, from) + (lines.get(a.id) ?? []).filter((l) => l.method === 'ladder' && l.label.startsWith(cycle)).reduce((x, l) => x + l.quantity, 0);
            for (const l of ladderLines(doc.price, doc.ladder.tiers, quantize(usedBefore), use)) {
              push({ accountId: a.id, deviceId: ids.length === 1 ? ids[0]! : null, method, label: `${cycle} ${l.label}${segLabel(s)}`, quantity: l.quantity, unit: 'kWh', unitPrice: l.unitPrice, amountFen: l.amountFen });
            }
          }
        }
      } else if (SHARE_METHODS.has(method)) {
        const inTeam = new Set<number>();
        for (const t of teams) {
          const members = billed.filter((a) => t.accountIds.includes(a.id));
          members.forEach((a) => inTeam.add(a.id));
          if (!members.length) continue;
          if (!t.totalDeviceIds.length) {
            gap({ accountId: null, deviceId: null, deviceName: null, fieldCode: null, kind: 'noTeam', from: s.from, to: s.until, note: `分摊组「${t.name}」未关联总表，无法计算总费用` });
            continue;
          }
          // each member's figures as split (area; equivalent, or valve-open hours), kept on its line
          const basis = new Map<number, ShareBasis>(members.map((a) => {
            const q = method === 'shareArea' ? 0 : quantize(own(a).reduce((x, id) => x + qtyOf(devices.get(id)!, method, doc, s.index), 0));
            const area = a.rooms.reduce((x, r) => x + r.area, 0);
            return [a.id, { team: t.name, area, ...(method === 'onOffTimeArea' ? { hours: q } : method === 'shareArea' ? {} : { equivalent: q }), deviceIds: own(a) }];
          }));
          const inputOf = (a: BillingAccount) => basis.get(a.id)!;
          let teamLines: QuoteLine[] = [];
          try {
            const heatInputs = members.map((a) => ({ id: a.id, area: inputOf(a).area, hours: inputOf(a).hours ?? 0 }));
            const buildingHeat = quantize(t.totalDeviceIds.reduce((x, id) => x + bucketUse(id, 'f60', s.index), 0));
            // heat the building took while no member's valve was open (pipes, common parts) is split by area, not dropped
            const noValveTime = method === 'onOffTimeArea' && buildingHeat > 0 && heatInputs.every((x) => x.area * x.hours === 0);
            if (noValveTime) gap({ accountId: null, deviceId: null, deviceName: null, fieldCode: null, kind: 'byArea', from: s.from, to: s.until, note: `分摊组「${t.name}」本期无通阀时间：楼栋热量 ${buildingHeat} GJ 按面积分摊` });
            teamLines = method === 'onOffTimeArea'
              ? onOffTimeAreaLines(buildingHeat, doc.price, noValveTime ? heatInputs.map((x) => ({ ...x, hours: 1 })) : heatInputs)
              : shareTeamLines(t, members.map((a) => ({ id: a.id, equivalent: inputOf(a).equivalent ?? 0, area: inputOf(a).area })), method, doc, s.index);
          } catch (err) {
            gap({ accountId: null, deviceId: null, deviceName: null, fieldCode: null, kind: 'unallocated', from: s.from, to: s.until, note: `分摊组「${t.name}」：${(err as Error).message}` });
          }
          for (const l of teamLines) {
            if (l.amountFen === 0 && l.quantity === 0) continue;
            push({ accountId: Number(l.label), deviceId: null, method, label: `${BILLING_METHODS[method]}（${t.name}）${segLabel(s)}`, quantity: l.quantity, unit: method === 'onOffTimeArea' ? 'GJ' : METHOD_FIELDS[method].unit, unitPrice: l.unitPrice, amountFen: l.amountFen, basis: basis.get(Number(l.label)) });
          }
        }
        for (const a of billed) if (!inTeam.has(a.id)) gap({ accountId: a.id, deviceId: null, deviceName: null, fieldCode: null, kind: 'noTeam', from: s.from, to: s.until, note: `账户「${a.name}」未加入分摊组，本期未分摊` });
      }
    }

    // monthly items at each accounting-period start inside the run: flat fee (21), device base fees, the basic heat fee,
    // and the overtime hours of the month that just ended (the overtime pool), at the overtime price
    for (const m of periodStarts(from, until, segAt)) {
      const doc = segAt(m).version.doc;
      const method = schemeOf(doc.scheme)?.method;
      const month = localParts(m).date.slice(0, 7);
      const previous = localParts(m - DAY_MS).date.slice(0, 7);
      const overtime = deps.overtime ? await deps.overtime(tenantId, projectId, previous) : [];
      for (const o of overtime) {
        const owner = roomOwner.get(o.areaId);
        const hours = quantize(o.usedHours);
        if (owner === undefined || hours <= 0) continue;
        push({ accountId: owner, deviceId: null, method: 'overtime', label: `超时用能（${previous}，核定 ${o.approvedHours} h）`, quantity: hours, unit: 'h', unitPrice: doc.overtimePrice, amountFen: amountFen(hours, doc.overtimePrice) });
      }
      for (const a of billed) {
        if (a.createdAt > m) continue;
        if (method === 'flat') push({ accountId: a.id, deviceId: null, method: 'flat', label: `包月费（${month}）`, quantity: 1, unit: '月', unitPrice: doc.flatMonthlyPrice, amountFen: amountFen(1, doc.flatMonthlyPrice) });
        if (method === 'heatTwoPart') {
          const area = a.rooms.reduce((x, r) => x + r.area, 0);
          const [basic] = heatTwoPartLines(doc.heat.basicPrice, doc.heat.heatPrice, area, 0);
          if (basic && basic.amountFen > 0) push({ accountId: a.id, deviceId: null, method, label: `基本热费（${month}）`, quantity: basic.quantity, unit: 'm²', unitPrice: basic.unitPrice, amountFen: basic.amountFen });
        }
        for (const id of accountDevices.get(a.id) ?? []) {
          const fee = paramOf(id).baseFeeFen;
          if (fee > 0) push({ accountId: a.id, deviceId: id, method: 'baseFee', label: `${devices.get(id)!.name} 基础费（${month}）`, quantity: 1, unit: '月', unitPrice: fenToYuan(fee), amountFen: fee });
        }
      }
    }

    // write each account's lines once, then (prepaid) charge each account once
    const scheme = schemeOf(segments[segments.length - 1]?.version.doc.scheme ?? runRow.scheme);
    const written = new Set((await db.selectFrom('billing_line').select('account_id').distinct().where('run_id', '=', runId).execute()).map((r) => Number(r.account_id)));
    const pending = [...lines.entries()].filter(([id, ls]) => ls.length && !written.has(id));
    for (let i = 0; i < pending.length; i += 200) {
      const chunk = pending.slice(i, i + 200);
      await db.transaction().execute(async (trx) => {
        const rows = chunk.flatMap(([accountId, ls]) => ls.map((l, seq) => ({
          tenant_id: tenantId, project_id: projectId, run_id: runId, account_id: accountId, seq, device_id: l.deviceId, method: l.method, label: l.label.slice(0, 80),
          quantity: l.quantity, unit: l.unit, unit_price: l.unitPrice, amount_fen: l.amountFen, period_from: from, period_until: until, entry_id: null, bill_id: null,
          basis: l.basis ? JSON.stringify(l.basis) : null,
        })));
        for (let j = 0; j < rows.length; j += 300) await trx.insertInto('billing_line').values(rows.slice(j, j + 300)).onConflict((oc) => oc.columns(['run_id', 'account_id', 'seq']).doNothing()).execute();
      });
    }
    if (scheme?.prepaid) {
      const due = await db.selectFrom('billing_line').select(['account_id', (eb) => eb.fn.sum<number>('amount_fen').as('fen')])
        .where('run_id', '=', runId).where('entry_id', 'is', null).groupBy('account_id').execute();
      for (const d of due) {
        const fen = Number(d.fen);
        if (fen <= 0) continue;
        try {
          const r = await accounts.systemCharge(tenantId, Number(d.account_id), {
            amountFen: fen, reason: `用能计费 ${cstDateTime(from)} ～ ${cstDateTime(until)}`, causeType: 'billing_run', causeId: String(runId),
          }, `billing-run-${runId}-${d.account_id}`);
          await db.updateTable('billing_line').set({ entry_id: r.entryId }).where('run_id', '=', runId).where('account_id', '=', Number(d.account_id)).where('entry_id', 'is', null).execute();
        } catch (err) {
          gap({ accountId: Number(d.account_id), deviceId: null, deviceName: null, fieldCode: null, kind: 'unallocated', from, to: until, note: `扣费未完成：${(err as Error).message}` });
        }
      }
    }
    if (gapCount > gaps.length) gaps.push({ accountId: null, deviceId: null, deviceName: null, fieldCode: null, kind: 'stale', from, to: until, note: `另有 ${gapCount - gaps.length} 条缺数记录未列出` });
    const totals = await db.selectFrom('billing_line')
      .select([(eb) => eb.fn.count<number>('id').as('lines'), (eb) => eb.fn.sum<number>('amount_fen').as('fen'), (eb) => eb.fn.count<number>('account_id').distinct().as('accounts')])
      .where('run_id', '=', runId).executeTakeFirstOrThrow();
    await db.updateTable('billing_run').set({
      state: 'done', accounts: Number(totals.accounts ?? 0), lines: Number(totals.lines ?? 0), total_fen: Number(totals.fen ?? 0), gaps: JSON.stringify(gaps), finished_at: Date.now(),
    }).where('id', '=', runId).execute();
  }

  /** kWh already billed to the account in the ladder cycle, before `from` */
  async function ladderUsedBefore(accountId: number, doc: TariffDoc, cycle: string, before: number): Promise<number> {
    const row = await db.selectFrom('billing_line').select((eb) => eb.fn.sum<number>('quantity').as('q'))
      .where('account_id', '=', accountId).where('method', '=', 'ladder').where('label', 'like', `${cycle} %`).where('period_until', '<=', before).executeTakeFirst();
    void doc;
    return Number(row?.q ?? 0);
  }

  return { run };
}

/** Accounting-period starts (the close day's local midnight) in (from, until]. */
export function periodStarts(from: number, until: number, segAt: (ts: number) => { version: TariffVersion }): number[] {
  const out: number[] = [];
  const first = localParts(from);
  let y = first.year;
  let m = first.month;
  for (let i = 0; i < 1200; i++) {
    const day = segAt(Math.min(until, Math.max(from + 1, localMidnight(`${y}-${String(m).padStart(2, '0')}-01`)))).version.doc.accounting.closeDay;
    const at = localMidnight(`${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
    if (at > until) break;
    if (at > from) out.push(at);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

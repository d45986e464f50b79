import { roundToStep, validateFieldWrite, type DeviceAction, type DeviceTypeDef, type FieldDef, type FieldValue } from '@kelvin/contracts';

/** A command as it arrives on `…/down` (design §7). */
export interface DownMessage {
  id: number;
  fields?: Record<string, unknown>;
  action?: DeviceAction;
}

export interface ApplyResult {
  ok: boolean;
  error?: string;
  /** reboot: go offline for a moment after acknowledging */
  reboot?: boolean;
}

const SHANGHAI_OFFSET_H = 8;
/** set points that differ from device to device; other settings keep the registry's initial value */
const SETPOINTS = new Set(['f04', 'f41', 'f80']);
const AMBIENT_HEATING = 15;

/**
 * The room: one thermal mass heated (or cooled) through the valve and losing heat to the outdoors —
 * dT/dt = k_valve × (T_supply − T) + k_loss × (T_outdoor − T). With these constants an open heating valve warms a
 * room by about 2.5 °C/h at 17 °C and would level off near 34 °C; with the valve shut a 22 °C room cools by about
 * 0.6 °C/h on a 3 °C night. Integrated in steps of at most two minutes, so the valve's hysteresis plays out even
 * when readings are hours apart.
 */
const THERMAL = {
  heat: { supply: 42, k: 0.12 },
  cool: { supply: 12, k: 0.2 },
  loss: 0.03,
  maxStepHours: 2 / 60,
};

/** Outdoor temperature by local time of day: coldest before dawn, warmest mid-afternoon (winter or summer). */
export function outdoorTemperature(now: number, cooling: boolean): number {
  const swing = Math.sin((Math.PI * (localHour(now) - 9)) / 12);
  return cooling ? 30 + 4 * swing : 3 + 5 * swing;
}
/** chance per hour that a heat pump or system controller raises an alarm */
const ALARM_PER_HOUR = 0.02;
/** share of heat pumps and controllers already showing a fault when the demo starts */
const FAULTY_AT_START = 0.2;
/** share of rooms nobody lives in: their thermostat is switched off */
const VACANT = 0.15;

/** A small deterministic PRNG, so one device behaves the same run after run (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const clamp = (f: FieldDef, v: number) => Math.min(f.max ?? Infinity, Math.max(f.min ?? -Infinity, v));

/** Evaluation order: readings first, then what depends on them (demand → counters → sums). */
const ORDER: Record<FieldDef['sim']['mode'], number> = { static: 0, walk: 1, daylight: 1, follow: 2, demand: 3, accumulate: 4, integrate: 4, sum: 5 };

/**
 * One simulated device of a registry type: plausible readings that move by the registry's sim rules (thermostats
 * drift toward their set point, counters only grow while running, solar follows daylight), commands applied the way
 * the hardware would — including what the hardware refuses.
 */
export class DeviceModel {
  readonly state: Record<string, FieldValue> = {};
  private readonly random: () => number;
  private readonly ordered: FieldDef[];
  private lastStep: number;
  private day: number;
  /** room temperatures without the sensor's noise (the noise must not accumulate) */
  private readonly rooms = new Map<string, number>();
  /**
   * counters as counted, before the report's rounding to the field's step: a short interval adds less than half a
   * step (a heat meter's 0.022 GJ/h over a minute), and rounding each interval's total would lose it for ever
   */
  private readonly counts = new Map<string, number>();
  /** room temperature field → the valve field that heats or cools it */
  private readonly valveOf = new Map<string, FieldDef>();

  constructor(readonly def: DeviceTypeDef, readonly code: string, now = Date.now()) {
    this.random = prng(hash(code));
    this.ordered = [...def.fields].sort((a, b) => ORDER[a.sim.mode] - ORDER[b.sim.mode]);
    for (const f of def.fields) {
      const sim = f.sim;
      if (sim.mode === 'demand' && sim.actual === 'f03') this.valveOf.set(sim.actual, f);
    }
    for (const f of def.fields) this.state[f.code] = this.initial(f);
    // who lives where and what is broken: a draw of its own per device, independent of the readings' sequence
    const fate = prng(hash(`${code}:fate`));
    if (this.valveOf.size && this.state.f00 === 1 && fate() < VACANT) this.state.f00 = 0;
    const alarm = def.fields.find((f) => f.code === 'f47');
    if (alarm && fate() < FAULTY_AT_START) {
      const codes = Object.keys(alarm.options ?? {}).map(Number).filter((c) => c !== 0);
      this.state.f47 = codes[Math.floor(fate() * codes.length)];
    }
    // a room whose thermostat has been running sits around its set point; one that is off has cooled down
    for (const code of this.valveOf.keys()) {
      const f = def.fields.find((x) => x.code === code)!;
      const set = f.sim.mode === 'follow' ? this.num(f.sim.target) : 20;
      const start = this.powered ? set - 1.5 + this.random() * 2 : 14 + this.random() * 3;
      this.rooms.set(code, start);
      this.state[code] = roundToStep(f, start);
    }
    this.lastStep = now;
    this.day = localDay(now);
    this.step(now);
  }

  /** Every device starts a little different: set points, counters and readings spread around the registry value. */
  private initial(f: FieldDef): FieldValue {
    if (typeof f.initial !== 'number' || f.kind !== 'number') return f.initial;
    const r = this.random();
    if (f.writable) return SETPOINTS.has(f.code) ? clamp(f, Math.round(f.initial + (r - 0.5) * 4)) : f.initial;
    if (f.sim.mode === 'accumulate' || f.sim.mode === 'integrate') return roundToStep(f, f.initial * (0.5 + r) + r * 100 * (f.step ?? 1));
    return clamp(f, roundToStep(f, f.initial + (r - 0.5) * 2));
  }

  /** keeps a counter's exact count and answers what it reports */
  private count(f: FieldDef, exact: number): number {
    this.counts.set(f.code, exact);
    return roundToStep(f, exact);
  }

  private num(code: string): number {
    const v = this.state[code];
    return typeof v === 'number' ? v : 0;
  }

  get powered(): boolean {
    return this.state.f00 === undefined || this.state.f00 === 1;
  }

  /** cooling when the mode says so: thermostat mode 0, heat pump mode 0, or summer season */
  private get cooling(): boolean {
    return this.state.f01 === 0 || this.state.f40 === 0 || (this.state.f01 === undefined && this.state.f45 === 0);
  }

  /** Advances the readings to `now`. */
  step(now = Date.now()) {
    const hours = Math.max(0, (now - this.lastStep) / 3_600_000);
    this.lastStep = now;
    const today = localDay(now);
    const newDay = today !== this.day;
    this.day = today;
    const on = this.powered;
    for (const f of this.ordered) {
      const sim = f.sim;
      const v = this.num(f.code);
      switch (sim.mode) {
        case 'walk': {
          const next = v + (this.random() - 0.5) * 2 * sim.jitter + (sim.base - v) * Math.min(1, 0.2 + hours);
          this.state[f.code] = roundToStep(f, clamp(f, next));
          break;
        }
        case 'follow': {
          const valve = this.valveOf.get(f.code);
          if (valve && sim.mode === 'follow') {
            this.state[f.code] = this.room(f, valve, sim.target, hours, now);
            break;
          }
          const target = on ? this.num(sim.target) : this.cooling ? 30 : AMBIENT_HEATING;
          const rate = on ? sim.rate : sim.rate / 3;
          const diff = target - v;
          const move = Math.sign(diff) * Math.min(Math.abs(diff), rate * hours);
          const noise = (this.random() - 0.5) * (f.step ?? 0.1) * 2;
          this.state[f.code] = roundToStep(f, clamp(f, v + move + noise));
          break;
        }
        case 'daylight': {
          const h = localHour(now);
          const sun = Math.max(0, Math.sin((Math.PI * (h - 6)) / 12));
          this.state[f.code] = on ? roundToStep(f, sim.peak * sun * (0.85 + 0.15 * this.random())) : 0;
          break;
        }
        case 'demand': {
          this.state[f.code] = this.demands(this.num(sim.actual), this.num(sim.target), v === 1) ? 1 : 0;
          break;
        }
        case 'accumulate': {
          const when = sim.when ?? {};
          const running = on && Object.entries(when).every(([code, values]) => values.includes(this.num(code)));
          if (running) this.state[f.code] = this.count(f, (this.counts.get(f.code) ?? v) + sim.perHour * hours * (0.8 + 0.4 * this.random()));
          break;
        }
        case 'integrate': {
          const base = sim.daily && newDay ? 0 : this.counts.get(f.code) ?? v;
          this.state[f.code] = this.count(f, base + this.num(sim.of) * hours);
          break;
        }
        case 'sum': {
          const total = Object.entries(sim.of).reduce((s, [code, w]) => s + this.num(code) * w, 0);
          this.state[f.code] = roundToStep(f, total);
          break;
        }
        default:
          break;
      }
    }
    // inverters: operating state follows generation; heat pumps and controllers raise an alarm now and then
    if (this.state.f95 !== undefined) this.state.f95 = on && this.num('f90') > 0.05 ? 1 : 0;
    const alarm = this.def.fields.find((f) => f.code === 'f47');
    if (alarm && this.state.f47 === 0 && this.random() < ALARM_PER_HOUR * hours) {
      const codes = Object.keys(alarm.options ?? {}).map(Number).filter((c) => c !== 0);
      this.state.f47 = codes[Math.floor(this.random() * codes.length)];
    }
  }

  /** Hysteresis: a valve (compressor) opens when the gap exceeds 回差, and closes once the target is reached. */
  private demands(actual: number, target: number, wasOpen: boolean): boolean {
    const hysteresis = typeof this.state.f18 === 'number' ? this.state.f18 : 0.5;
    const gap = this.cooling ? actual - target : target - actual;
    const alarmed = typeof this.state.f47 === 'number' && this.state.f47 !== 0;
    return this.powered && !alarmed && (wasOpen ? gap > 0 : gap > hysteresis);
  }

  /** Advances a room's temperature by the thermal model, switching its valve as the thermostat would. */
  private room(f: FieldDef, valve: FieldDef, setCode: string, hours: number, now: number): number {
    const reported = this.num(f.code);
    const known = this.rooms.get(f.code);
    // a reading set from outside (a test, a restored state) is taken as the room's temperature
    let t = known === undefined || Math.abs(known - reported) > 0.2 ? reported : known;
    let open = this.state[valve.code] === 1;
    const mode = this.cooling ? THERMAL.cool : THERMAL.heat;
    const steps = Math.ceil(hours / THERMAL.maxStepHours);
    const dt = steps ? hours / steps : 0;
    for (let i = 0; i < steps; i++) {
      open = this.demands(t, this.num(setCode), open);
      const outdoor = outdoorTemperature(now - (steps - i - 1) * dt * 3_600_000, this.cooling);
      const k = (open ? mode.k : 0) + THERMAL.loss;
      const settle = ((open ? mode.k * mode.supply : 0) + THERMAL.loss * outdoor) / k;
      t = settle + (t - settle) * Math.exp(-k * dt);
    }
    this.rooms.set(f.code, t);
    this.state[valve.code] = open ? 1 : 0;
    // the sensor reads to ±0.05 °C
    return roundToStep(f, clamp(f, t + (this.random() - 0.5) * 0.1));
  }

  /** The `up` payload: every field. */
  report(now = Date.now()): { ts: number; fields: Record<string, FieldValue> } {
    this.step(now);
    return { ts: now, fields: { ...this.state } };
  }

  /**
   * A misreading, as real meters and sensors produce now and then: a meter register read a little low (it seems to
   * run backwards for one report) or a room sensor spiking to 55 °C or more. Only the payload is wrong; the model's state stays
   * true, so the next report is right again. `r` is a draw in [0, 1). Null when the type has nothing to misread.
   */
  misread(payload: { ts: number; fields: Record<string, FieldValue> }, r: number): { ts: number; fields: Record<string, FieldValue> } | null {
    const meters = this.def.fields.filter((f) => f.sim.mode === 'accumulate' && this.num(f.code) > 1);
    const sensor = this.valveOf.size ? this.def.fields.find((f) => f.code === 'f03') : undefined;
    const choices = [...meters, ...(sensor ? [sensor] : [])];
    if (!choices.length) return null;
    const f = choices[Math.floor(r * choices.length)];
    const fields = { ...payload.fields };
    if (f.sim.mode === 'accumulate') fields[f.code] = roundToStep(f, Math.max(0, this.num(f.code) - f.sim.perHour * (1 + 2 * r)));
    else fields[f.code] = roundToStep(f, clamp(f, 55 + 4 * r));
    return { ts: payload.ts, fields };
  }

  /** A command, applied as the hardware would, or refused with the reason the hardware gives. */
  apply(msg: DownMessage, now = Date.now()): ApplyResult {
    this.step(now);
    if (msg.action) return this.act(msg.action);
    const entries = Object.entries(msg.fields ?? {});
    if (!entries.length) return { ok: false, error: '指令中没有字段' };
    const next: Record<string, FieldValue> = {};
    for (const [code, raw] of entries) {
      const check = validateFieldWrite(this.def, code, raw);
      if (!check.ok) return { ok: false, error: check.message };
      next[code] = check.value;
    }
    const refused = this.refuse(next);
    if (refused) return { ok: false, error: refused };
    Object.assign(this.state, next);
    this.step(now);
    return { ok: true };
  }

  /** Hardware limits beyond the registry ranges. */
  private refuse(next: Record<string, FieldValue>): string | null {
    const merged = { ...this.state, ...next };
    if (this.state.f10 === 3 && !('f10' in next)) return '设备已禁用，请先解除禁用';
    if (typeof merged.f04 === 'number' && typeof merged.f12 === 'number' && typeof merged.f13 === 'number') {
      if ('f04' in next && (merged.f04 < merged.f12 || merged.f04 > merged.f13)) return `设定温度超出设备限值 ${merged.f12}～${merged.f13} °C`;
      if (merged.f12 >= merged.f13) return '最低温度必须低于最高温度';
    }
    // floor-heating thermostats (they have a floor sensor) have no cooling or ventilation
    if ('f01' in next && this.state.f08 !== undefined && (next.f01 === 0 || next.f01 === 2)) return '地暖温控器不支持制冷和通风模式';
    return null;
  }

  private act(action: DeviceAction): ApplyResult {
    if (!this.def.actions.includes(action)) return { ok: false, error: '设备不支持该操作' };
    switch (action) {
      case 'resetAlarm':
        if (this.state.f47 !== undefined) this.state.f47 = 0;
        return { ok: true };
      case 'resetCounters':
        for (const f of this.def.fields) if (f.sim.mode === 'accumulate' || f.sim.mode === 'integrate') this.state[f.code] = this.count(f, 0);
        return { ok: true };
      case 'reboot':
        return { ok: true, reboot: true };
      default:
        return { ok: true };
    }
  }
}

function localHour(now: number): number {
  return ((now / 3_600_000 + SHANGHAI_OFFSET_H) % 24 + 24) % 24;
}

function localDay(now: number): number {
  return Math.floor((now / 3_600_000 + SHANGHAI_OFFSET_H) / 24);
}

/**
 * Device type registry types (design §7). The registry itself (DEVICE_TYPES) lives in device-registry.ts:
 * one entry per device route of spec §2.3/§2.5, plus gateways and managers. It drives command validation,
 * the monitor pages, the simulator and the reports.
 */
export type FieldKind = 'enum' | 'number' | 'time' | 'bool' | 'text';

/**
 * How the simulator moves a reading between reports (commands change writable fields directly). Counters and
 * demand flags only move while the device is powered (f00 = 1, or no f00).
 */
export type FieldSim =
  | { mode: 'static' } // keeps its value until commanded
  | { mode: 'walk'; base: number; jitter: number } // random walk around base, clamped to min/max
  | { mode: 'accumulate'; perHour: number; when?: Record<string, number[]> } // counter that only grows (run time, heat, flow) while every `when` field holds one of its values
  | { mode: 'follow'; target: string; rate: number } // drifts toward another field (room temperature → set point) at `rate` per hour
  | { mode: 'daylight'; peak: number } // solar generation: 0 at night, peaks at noon
  | { mode: 'integrate'; of: string; daily?: boolean } // energy (kWh) from a power field (kW); `daily` restarts at midnight
  | { mode: 'sum'; of: Record<string, number> } // weighted sum of other fields (time-equivalent, temperature difference)
  | { mode: 'demand'; actual: string; target: string }; // 1 while powered and `actual` has not reached `target` (valve open, compressor running)

export interface FieldDef {
  code: string; // f00, f01 …
  label: string; // Chinese label
  kind: FieldKind;
  unit?: string;
  min?: number;
  max?: number;
  step?: number;
  /** enum value → Chinese label */
  options?: Record<string, string>;
  writable: boolean;
  /** initial simulated value */
  initial: number | string;
  sim: FieldSim;
  /** fields of the device holding its own current bounds (a thermostat's f12/f13), which narrow min/max for writes */
  limits?: { min?: string; max?: string };
  /** text fields: the longest accepted value (64 unless set) */
  maxLength?: number;
  /** not a control of its own: written by a feature (a week program kept in memory), never from the control drawer */
  hidden?: boolean;
}

export type DeviceCategory =
  | 'thermostat'
  | 'billingThermostat'
  | 'heatPump'
  | 'heatMeter'
  | 'electricMeter'
  | 'valve'
  | 'solar'
  | 'onOffController'
  | 'airCabinet'
  | 'distributor'
  | 'systemController'
  | 'gateway'
  | 'manager';

export interface DeviceTypeDef {
  /** the device route code, e.g. device20020, calorimeter; also the device_type column */
  code: string;
  name: string;
  category: DeviceCategory;
  /** spec §6 project types whose projects use this type */
  projectTypes: string[];
  /** online = reported within this window */
  heartbeatSeconds: number;
  /** seconds between reports in the simulator */
  reportSeconds: number;
  /** 4G devices sleep between reports: commands wait for their next wake-up */
  sleeps: boolean;
  fields: FieldDef[];
  /** field codes shown as table columns on the monitor page */
  listFields: string[];
  /** operations besides field writes that the device accepts (spec's operation/{id}?eventType) */
  actions: DeviceAction[];
  /**
   * The device keeps a week program in its own memory (memoryScheduledTask): programs are pushed to it as one write
   * of `programField` and it reports the program back; the server does not execute the slots itself.
   */
  programField: string | null;
  /**
   * How the prepaid loop stops and restores supply (design §8 cut-off / reconnect): the field written and its values
   * (power off / on, valve forced closed / automatic, relay open / closed). null = the type cannot cut supply (meters).
   */
  supply: { field: string; off: number; on: number } | null;
  /**
   * Project types that install one of these per building as plant rather than for a resident (the cold station's
   * electric meter of an AC cost-share building, the building heat meter of on/off-time-area heating): its use is the
   * total a share team splits (billing).
   */
  plantFor: string[];
}

/** Operations sent as commands without a field write (spec §7.3 refreshdevice, operation/{id}?eventType). */
export type DeviceAction = 'refresh' | 'reboot' | 'syncTime' | 'resetAlarm' | 'resetCounters';

export const UNKNOWN_STATUS = '未知状态';

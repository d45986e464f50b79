import type { MeteringMethodType, TariffDoc } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { AccountService } from '../accounts/index.ts';

export interface TariffVersion { id: number; effectiveFrom: number; doc: TariffDoc }
export interface DeviceParams { chargeRate: string; ratedPower: string; baseFeeFen: number }
export interface ShareTeam { id: number; name: string; accountIds: number[]; totalDeviceIds: number[]; publicDeviceIds: number[] }
export interface DevicePlan { planId: number; name: string; method: MeteringMethodType; price: string }

/**
 * Billing configuration (placeholder — the config helper fills it in): the versioned tariff of each project, device
 * parameters, share teams with members and related meters, metering plans. The engine reads through the first five
 * functions; the routes in config-routes.ts through the rest.
 */
export function createBillingConfig(_deps: { db: Db; projects: ProjectService; core: DeviceCore; accounts: AccountService }) {
  const todo = (): never => { throw new Error('todo'); };
  return {
    /** versions in force during (from, until], ascending by effectiveFrom; the first is the one in force at `from` (the default document, id 0, when none was saved) */
    tariffVersions: async (_projectId: number, _from: number, _until: number): Promise<TariffVersion[]> => todo(),
    tariffAt: async (_projectId: number, _at: number): Promise<TariffVersion> => todo(),
    deviceParamsAt: async (_deviceIds: number[], _at: number): Promise<Map<number, DeviceParams>> => todo(),
    shareTeams: async (_projectId: number): Promise<ShareTeam[]> => todo(),
    devicePlansAt: async (_deviceIds: number[], _at: number): Promise<Map<number, DevicePlan>> => todo(),
  };
}
export type BillingConfig = ReturnType<typeof createBillingConfig>;

import { BATCH_RESULT_LABELS, validateFieldWrite, type BatchParaAnswer, type BatchParaResult, type FieldValue } from '@kelvin/contracts';
import { AppError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';
import type { DeviceCore, DeviceService } from '../devices/index.ts';

const PARALLEL = 8;

/**
 * batchpara: one field written to many devices. Each device gets its own command and its own result — sent now,
 * queued for an offline or sleeping device (delivered when it comes back, until the TTL), or failed with the
 * reason (no such device, no permission, the type has no such field, out of range). Nothing is skipped silently.
 */
export async function batchWrite(core: DeviceCore, actor: Actor,
  input: { deviceIds: number[]; fieldCode: string; value: FieldValue; ttl?: number }): Promise<BatchParaAnswer> {
  const ids = [...new Set(input.deviceIds)];
  const results: BatchParaResult[] = new Array(ids.length);
  const one = async (deviceId: number): Promise<BatchParaResult> => {
    let row: Awaited<ReturnType<DeviceService['device']>> | undefined;
    try {
      row = await core.devices.device(actor, deviceId, 'control');
      const check = validateFieldWrite(row.device_type, input.fieldCode, input.value);
      if (!check.ok) throw new AppError(40000, check.message);
      const cmd = await core.issueCommand(await core.devices.target(row), { fieldCode: input.fieldCode, value: check.value }, { userId: actor.user.id, username: actor.user.username }, { ttl: input.ttl });
      const status = cmd.status === 'sent' || cmd.status === 'acked' ? 'sent' : 'queued';
      return { deviceId, deviceCode: row.device_code, deviceName: row.device_name, status, commandId: cmd.id, message: BATCH_RESULT_LABELS[status] };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { deviceId, deviceCode: row?.device_code ?? null, deviceName: row?.device_name ?? null, status: 'failed', commandId: null, message: err.message };
    }
  };
  for (let i = 0; i < ids.length; i += PARALLEL) {
    const chunk = ids.slice(i, i + PARALLEL);
    const done = await Promise.all(chunk.map(one));
    done.forEach((r, j) => (results[i + j] = r));
  }
  return {
    total: results.length,
    sent: results.filter((r) => r.status === 'sent').length,
    queued: results.filter((r) => r.status === 'queued').length,
    failed: results.filter((r) => r.status === 'failed').length,
    results,
  };
}

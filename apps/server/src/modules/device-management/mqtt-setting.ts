import { deviceTopic, type MqttSettingView } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Scope } from '../../lib/scope.ts';
import type { MqttHub } from '../../plugins/mqtt.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../../lib/scope.ts';

/**
 * mqttSetting_n: what an installer loads into a device — the broker address devices reach (the server cannot know
 * its public name, so the operator sets it per project), the port and TLS, the topics; credentials per device are
 * re-issued through the device core.
 */
export function createMqttSettingService(deps: { db: Db; projects: ProjectService; mqtt: MqttHub | null; mqttUrl?: string }) {
  const { db } = deps;

  function broker(): MqttSettingView['broker'] {
    if (!deps.mqtt) return { kind: 'off', port: null, host: null };
    if (deps.mqtt.external) {
      let host: string | null = null;
      let port: number | null = null;
      try {
        const u = new URL(deps.mqttUrl ?? '');
        host = u.hostname || null;
        port = u.port ? Number(u.port) : 1883;
      } catch {
        // an unreadable URL: show nothing rather than a guess
      }
      return { kind: 'external', port, host };
    }
    return { kind: 'embedded', port: deps.mqtt.port, host: null };
  }

  async function view(scope: Scope, projectId: number): Promise<MqttSettingView> {
    const p = await deps.projects.project(scope, projectId);
    const [row, tenant] = await Promise.all([
      db.selectFrom('project_mqtt_setting').selectAll().where('project_id', '=', p.id).executeTakeFirst(),
      db.selectFrom('tenant').select('code').where('id', '=', p.tenant_id).executeTakeFirstOrThrow(),
    ]);
    return {
      projectId: p.id,
      host: row?.host ?? null,
      port: row?.port ?? null,
      tls: row?.tls === 1,
      updatedAt: row?.updated_at ?? null,
      updatedBy: row?.updated_by ?? null,
      broker: broker(),
      tenantCode: tenant.code,
      topics: {
        up: deviceTopic(tenant.code, '{deviceCode}', 'up'),
        down: deviceTopic(tenant.code, '{deviceCode}', 'down'),
        ack: deviceTopic(tenant.code, '{deviceCode}', 'ack'),
      },
    };
  }

  return {
    view,

    async save(a: Actor, body: { projectId: number; host: string; port: number; tls: boolean }) {
      const p = await deps.projects.project(a.scope, body.projectId);
      const values = { host: body.host, port: body.port, tls: body.tls ? 1 : 0, updated_by: a.user.username, updated_at: Date.now() };
      await db.insertInto('project_mqtt_setting').values({ project_id: p.id, tenant_id: p.tenant_id, ...values })
        .onConflict((oc) => oc.column('project_id').doUpdateSet(values)).execute();
      return view(a.scope, p.id);
    },
  };
}

export type MqttSettingService = ReturnType<typeof createMqttSettingService>;

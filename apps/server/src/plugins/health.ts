import type { FastifyInstance } from 'fastify';
import { ResultCode } from '@kelvin/contracts';
import { VERSION } from '@kelvin/contracts/version';
import { MIGRATION_NAMES, pendingMigrations, pingDb, type Db } from '../db/index.ts';
import type { MqttHub } from './mqtt.ts';

export interface ReadinessCheck {
  ok: boolean;
  detail: string;
}

export interface Readiness {
  ready: boolean;
  checks: { database: ReadinessCheck; migrations: ReadinessCheck; broker: ReadinessCheck };
}

/**
 * Is this process fit to take traffic: the database answers, every migration of this version is applied (and none of
 * a newer one: another process upgraded the database under it), the broker is up — the embedded one listening, or
 * the connection to the external one open. No broker at all (a test without MQTT) is not a failure.
 */
export async function readiness(db: Db, mqtt: MqttHub | null): Promise<Readiness> {
  const up = await pingDb(db);
  const database = { ok: up, detail: up ? '正常' : '数据库无法连接' };
  let migrations: ReadinessCheck = { ok: false, detail: '数据库无法连接，无法检查迁移' };
  if (up) {
    try {
      const { pending, unknown } = await pendingMigrations(db);
      migrations = pending.length
        ? { ok: false, detail: `还有 ${pending.length} 个迁移未执行：${pending.join('、')}` }
        : unknown.length
          ? { ok: false, detail: `数据库已被更新版本的 Kelvin 迁移（${unknown.join('、')}），本进程需要升级` }
          : { ok: true, detail: `已完成（${MIGRATION_NAMES.length} 个）` };
    } catch {
      migrations = { ok: false, detail: '迁移记录无法读取' };
    }
  }
  const status = mqtt?.status() ?? 'off';
  const where = mqtt?.external ? '外部 MQTT 服务器' : '内置 MQTT 服务';
  const broker = status === 'off'
    ? { ok: true, detail: '未启用' }
    : status === 'up'
      ? { ok: true, detail: mqtt?.external ? '已连接外部 MQTT 服务器' : `内置 MQTT 服务正在监听端口 ${mqtt?.port}` }
      : { ok: false, detail: mqtt?.external ? `${where}未连接` : `${where}未在监听` };
  return { ready: database.ok && migrations.ok && broker.ok, checks: { database, migrations, broker } };
}

/**
 * GET /api/health is liveness (the process answers; a load balancer restarts it when it does not); GET /api/ready is
 * readiness (send it traffic): 200 only when every check passes, else 503 naming the failed parts.
 */
export async function healthRoutes(app: FastifyInstance, opts: { db: Db; mqtt: MqttHub | null }) {
  const tags = ['系统'];
  app.get('/api/health', { schema: { tags, summary: '存活检查（进程在运行）' }, config: { access: 'public' } }, async () => ({
    code: ResultCode.OK,
    msg: '正常',
    data: { status: 'ok', version: VERSION, db: (await pingDb(opts.db)) ? 'up' : 'down', mqtt: opts.mqtt?.status() ?? 'off' },
  }));

  app.get('/api/ready', {
    schema: { tags, summary: '就绪检查：数据库可用、迁移已完成、MQTT 服务可用时 200，否则 503 并说明哪一项未就绪' },
    config: { access: 'public' },
  }, async (_req, reply) => {
    const r = await readiness(opts.db, opts.mqtt);
    if (r.ready) return { code: ResultCode.OK, msg: '就绪', data: r };
    const failed = Object.values(r.checks).filter((c) => !c.ok).map((c) => c.detail);
    return reply.status(503).send({ code: ResultCode.SERVER_ERROR, msg: `未就绪：${failed.join('；')}`, data: r });
  });
}

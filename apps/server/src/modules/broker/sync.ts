import crypto from 'node:crypto';
import mqtt from 'mqtt';
import type { Db } from '../../db/index.ts';
import { hashSecret, simulatorKey, simulatorSecret, type CredentialEvent, type DeviceContext, type DeviceCore } from '../devices/index.ts';
import {
  DEVICE_MARK, SERVER_ROLE, connectDynsec, planDevice, roleOf, sameAcls, serverAcls,
  type DesiredDevice, type DynsecClient, type DynsecClientInfo, type DynsecCommand, type DynsecRoleInfo,
} from './dynsec.ts';
import * as repo from './repository.ts';

export interface BrokerSyncOptions {
  url: string;
  user: string;
  password: string;
  /** periodic full re-sync by the lease holder (0: only at start) */
  resyncMs: number;
  shareGroup?: string;
  /** the server's own account (the ingest connection), made if missing */
  server?: { username: string; password: string };
}

export interface ResyncReport {
  devices: number;
  /** commands sent to bring the broker in line */
  commands: number;
  deleted: number;
  /** devices whose broker account has no current password: they cannot log in until their secret is reissued */
  needRekey: number;
  at: number;
}

const LEASE = 'dynsec';
const LEASE_TTL_MS = 15_000;
const LEASE_EVERY_MS = 5_000;
/** commands per control message (Mosquitto saves its whole JSON file after each changing message) */
const CHUNK = 300;
const REFUSED = /disconnected, not authori[sz]ed/;

/**
 * Kelvin's devices as Mosquitto dynamic-security accounts: one account (username = client id = device code, password =
 * the device secret) and one role (its own up/ack to publish, its own down to subscribe) per device.
 *
 * The secret exists in clear only when it is issued (created, reissued, imported, a replacement registered): the
 * process that issues it sets the password at once and records the secret's hash in broker_client. A full re-sync
 * (at start, then periodically by one process) needs no secret: it creates missing roles and accounts, enables or
 * disables accounts, deletes those of deleted devices, and disables any account whose recorded hash is not the
 * device's current one (a password the broker may hold from before a reissue) — such devices, and devices issued
 * before dynamic security was switched on, must have their secret reissued. Simulated devices are the exception:
 * their secret derives from the simulator key, so the re-sync sets it.
 */
export function createBrokerSync(deps: { db: Db; core: DeviceCore; options: BrokerSyncOptions; log: { info(msg: string): void; warn(msg: string): void; error(obj: unknown, msg: string): void } }) {
  const { db, core, options } = deps;
  const holder = crypto.randomUUID();
  const queue: CredentialEvent[] = [];
  let working: Promise<void> | null = null;
  let holding = false;
  let stopped = false;
  let lastResync: ResyncReport | null = null;
  let resyncing: Promise<ResyncReport> | null = null;
  let ready: Promise<ResyncReport> | null = null;
  const timers: NodeJS.Timeout[] = [];

  const dynsec: DynsecClient = connectDynsec({
    url: options.url, username: options.user, password: options.password,
    onLog: (line) => {
      if (REFUSED.test(line)) core.ingest.handlers.refused('auth', null, '', `Mosquitto 拒绝连接：${line.replace(/^\d+: /, '').slice(0, 120)}`);
    },
  });

  function check(responses: { command: string; error?: string }[]) {
    // several processes re-syncing at once (all start together) make the same account or role: the first one wins
    const failed = responses.filter((r) => r.error && !(r.command.startsWith('create') && r.error.endsWith('already exists')));
    if (failed.length) deps.log.warn(`动态安全命令失败：${failed.slice(0, 5).map((r) => `${r.command}（${r.error}）`).join('，')}${failed.length > 5 ? ` 等 ${failed.length} 条` : ''}`);
  }

  async function runChunked(commands: DynsecCommand[]) {
    for (let i = 0; i < commands.length; i += CHUNK) check(await dynsec.run(commands.slice(i, i + CHUNK)));
  }

  async function waitConnected() {
    for (let i = 0; !dynsec.connected(); i++) {
      if (stopped) throw new Error('已停止');
      await new Promise((r) => setTimeout(r, Math.min(2000, 100 * (i + 1))));
    }
  }

  /** secret of a device the simulator provisioned (derived from the simulator key), or undefined */
  let simKey: Buffer | null = null;
  async function derivable(ctx: DeviceContext): Promise<string | undefined> {
    simKey ??= await simulatorKey(db);
    const secret = simulatorSecret(simKey, ctx.code);
    return hashSecret(secret) === ctx.secretHash ? secret : undefined;
  }

  /** The account a device should have; `known`: the broker holds the device's current secret. */
  function desired(ctx: DeviceContext, known: boolean, password?: string): DesiredDevice {
    return { code: ctx.code, prefix: ctx.prefix, enabled: ctx.enabled && (known || password !== undefined), password };
  }

  /** Brings the accounts of some devices in line (an event of this process), reading the broker's view of each first. */
  async function syncCodes(codes: string[], secrets: Map<string, string>) {
    for (let i = 0; i < codes.length; i += 100) {
      const slice = codes.slice(i, i + 100);
      const current = await dynsec.run(slice.flatMap((code) => [{ command: 'getClient', username: code }, { command: 'getRole', rolename: roleOf(code) }]));
      const synced = await repo.syncedHashes(db, slice);
      const commands: DynsecCommand[] = [];
      const record: { code: string; secretHash: string }[] = [];
      const gone: string[] = [];
      for (const [j, code] of slice.entries()) {
        core.directory.invalidate(code);
        const ctx = await core.directory.byCode(code);
        const client = current[2 * j]?.data?.client as DynsecClientInfo | undefined;
        const role = current[2 * j + 1]?.data?.role as DynsecRoleInfo | undefined;
        if (!ctx) {
          commands.push(...planDevice(code, null, client, role));
          gone.push(code);
          continue;
        }
        // a secret superseded meanwhile (reissued again) is not set: the later event carries the current one
        const given = secrets.get(code);
        let password = given !== undefined && hashSecret(given) === ctx.secretHash ? given : undefined;
        const known = synced.get(code) === ctx.secretHash && !!client;
        if (!known && password === undefined) password = await derivable(ctx);
        commands.push(...planDevice(code, desired(ctx, known, password), client, role));
        if (password !== undefined) record.push({ code, secretHash: ctx.secretHash });
      }
      await runChunked(commands);
      // recorded only once the broker has the password: a crash before leaves the account to be disabled by a re-sync
      await repo.recordSynced(db, record);
      await repo.forgetSynced(db, gone);
    }
  }

  async function work() {
    while (queue.length && !stopped) {
      const event = queue[0];
      try {
        await waitConnected();
        if (event.kind === 'issued') await syncCodes(event.devices.map((d) => d.code), new Map(event.devices.map((d) => [d.code, d.secret])));
        else await syncCodes([...new Set(event.codes)], new Map());
        queue.shift();
      } catch (err) {
        if (stopped) return;
        deps.log.error({ err }, '同步设备到消息服务器失败，稍后重试');
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  function kick() {
    working ??= work().finally(() => {
      working = null;
      if (queue.length && !stopped) kick();
    });
  }

  core.devices.onCredentials((event) => {
    queue.push(event);
    kick();
  });

  /** The server's own account and role: made when missing; its password set only when the broker refuses it. */
  async function ensureServerAccount() {
    const acls = serverAcls(options.shareGroup);
    const [roleRes] = await dynsec.run([{ command: 'getRole', rolename: SERVER_ROLE }]);
    const role = roleRes.data?.role as DynsecRoleInfo | undefined;
    const commands: DynsecCommand[] = [];
    if (!role || !sameAcls(role.acls, acls)) {
      if (role) commands.push({ command: 'deleteRole', rolename: SERVER_ROLE });
      commands.push({ command: 'createRole', rolename: SERVER_ROLE, acls });
    }
    const server = options.server;
    if (server) {
      const [clientRes] = await dynsec.run([{ command: 'getClient', username: server.username }]);
      const client = clientRes.data?.client as DynsecClientInfo | undefined;
      if (!client) commands.push({ command: 'createClient', username: server.username, password: server.password, textname: 'kelvin-server', roles: [{ rolename: SERVER_ROLE }] });
      else if (commands.length || !client.roles?.some((r) => r.rolename === SERVER_ROLE)) commands.push({ command: 'addClientRole', username: server.username, rolename: SERVER_ROLE });
    }
    check(await dynsec.run(commands));
    // setting a password drops every connection of that account (the other processes'): only when it is wrong
    if (server && !(await canLogin(server))) {
      deps.log.warn(`消息服务器拒绝服务端账号 ${server.username} 的密码：按 MQTT_PASSWORD 重设`);
      check(await dynsec.run([{ command: 'setClientPassword', username: server.username, password: server.password }]));
    }
  }

  async function canLogin(account: { username: string; password: string }) {
    const probe = mqtt.connect(options.url, { ...account, clientId: `kelvin-probe-${crypto.randomBytes(4).toString('hex')}`, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
      return await new Promise<boolean>((resolve) => {
        probe.once('connect', () => resolve(true));
        probe.once('error', () => resolve(false));
        probe.once('close', () => resolve(false));
      });
    } finally {
      probe.end(true);
    }
  }

  /** Every device against the broker's accounts and roles; accounts of deleted devices go. */
  async function fullResync(): Promise<ResyncReport> {
    await waitConnected();
    const [clientsRes, rolesRes] = await dynsec.run([{ command: 'listClients', verbose: true }, { command: 'listRoles', verbose: true }]);
    if (clientsRes.error || rolesRes.error) throw new Error(`读取动态安全配置失败：${clientsRes.error ?? rolesRes.error}`);
    const clients = new Map(((clientsRes.data?.clients ?? []) as DynsecClientInfo[]).map((c) => [c.username, c]));
    const roles = new Map(((rolesRes.data?.roles ?? []) as DynsecRoleInfo[]).map((r) => [r.rolename, r]));
    const synced = await repo.syncedHashes(db);
    const seen = new Set<string>();
    const report: ResyncReport = { devices: 0, commands: 0, deleted: 0, needRekey: 0, at: Date.now() };
    let commands: DynsecCommand[] = [];
    let record: { code: string; secretHash: string }[] = [];
    const flush = async () => {
      report.commands += commands.length;
      await runChunked(commands);
      await repo.recordSynced(db, record);
      commands = [];
      record = [];
    };
    for (let after = ''; ;) {
      const page = await core.directory.page(after, 1000);
      for (const ctx of page.devices) {
        seen.add(ctx.code);
        report.devices++;
        const client = clients.get(ctx.code);
        const known = synced.get(ctx.code) === ctx.secretHash && !!client;
        const password = known ? undefined : await derivable(ctx);
        if (!known && password === undefined && ctx.enabled) report.needRekey++;
        commands.push(...planDevice(ctx.code, desired(ctx, known, password), client, roles.get(roleOf(ctx.code))));
        if (password !== undefined) record.push({ code: ctx.code, secretHash: ctx.secretHash });
      }
      if (commands.length >= CHUNK * 5) await flush();
      if (page.next === null) break;
      after = page.next;
    }
    const gone = [...clients.values()].filter((c) => c.textname === DEVICE_MARK && !seen.has(c.username)).map((c) => c.username);
    for (const code of gone) commands.push(...planDevice(code, null, clients.get(code), roles.get(roleOf(code))));
    // a role left behind without its account (a deletion cut short)
    for (const name of roles.keys()) {
      const code = name.startsWith('kelvin-device-') ? name.slice('kelvin-device-'.length) : null;
      if (code && !seen.has(code) && !clients.has(code)) commands.push({ command: 'deleteRole', rolename: name });
    }
    report.deleted = gone.length;
    await flush();
    await repo.forgetSynced(db, [...synced.keys()].filter((code) => !seen.has(code)));
    lastResync = report;
    if (report.needRekey) deps.log.warn(`消息服务器上有 ${report.needRekey} 台设备没有可用的密码（密钥发放于启用动态安全之前，或同步未完成）：重新生成密钥后即可连接`);
    return report;
  }

  function resync(): Promise<ResyncReport> {
    resyncing ??= fullResync().finally(() => {
      resyncing = null;
    });
    return resyncing;
  }

  async function leaseTick() {
    try {
      const held = await repo.claimLease(db, LEASE, holder, LEASE_TTL_MS);
      if (held !== holding) {
        holding = held;
        // one process counts Mosquitto's refusals (a $share subscription does not reach $SYS topics)
        dynsec.watchLog(held);
      }
    } catch (err) {
      deps.log.error({ err }, '消息服务器同步租约');
    }
  }

  return {
    /** Connects, makes the server's account, and starts the full re-sync (answered by `resync`'s promise). */
    async start(): Promise<void> {
      await leaseTick();
      timers.push(setInterval(() => void leaseTick(), LEASE_EVERY_MS));
      if (options.resyncMs > 0) {
        timers.push(setInterval(() => {
          if (holding) resync().catch((err) => deps.log.error({ err }, '消息服务器全量同步失败'));
        }, options.resyncMs));
      }
      const first = (async () => {
        await waitConnected();
        await ensureServerAccount();
        const r = await resync();
        deps.log.info(`消息服务器全量同步完成：${r.devices} 台设备，${r.commands} 条命令，删除 ${r.deleted} 个账号`);
        return r;
      })();
      first.catch((err) => {
        if (!stopped) deps.log.error({ err }, '消息服务器首次全量同步失败');
      });
      ready = first;
    },
    /** the first full re-sync (after start) */
    ready: () => ready ?? Promise.reject(new Error('未启动')),
    resync,
    /** Waits until every credential change of this process has reached the broker. */
    async settled() {
      while (working || queue.length) await (working ?? new Promise((r) => setTimeout(r, 10)));
    },
    status: () => ({ connected: dynsec.connected(), leaseHolder: holding, pending: queue.length, lastResync }),
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await dynsec.close();
      if (holding) await repo.releaseLease(db, LEASE, holder).catch(() => {});
    },
  };
}

export type BrokerSync = ReturnType<typeof createBrokerSync>;

import crypto from 'node:crypto';
import mqtt from 'mqtt';
import { deviceRules, ingestFilters } from '../../plugins/mqtt.ts';

/**
 * Mosquitto's dynamic-security plugin, driven over its control topic with the admin account: one request is one
 * control message (a list of commands), its answer matched by the correlation data every command carries (every
 * process holding the admin account sees every answer on the shared response topic).
 */

const CONTROL = '$CONTROL/dynamic-security/v1';
const RESPONSE = `${CONTROL}/response`;
/** Mosquitto's log lines (notice level): a refused CONNECT shows up here, and only here. */
export const LOG_TOPIC = '$SYS/broker/log/N';

export interface DynsecCommand {
  command: string;
  [key: string]: unknown;
}
export interface DynsecResponse {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
  correlationData?: string;
}
export interface DynsecAcl {
  acltype: string;
  topic: string;
  allow: boolean;
  priority?: number;
}
export interface DynsecClientInfo {
  username: string;
  clientid?: string;
  textname?: string;
  disabled?: boolean;
  roles?: { rolename: string }[];
}
export interface DynsecRoleInfo {
  rolename: string;
  acls?: DynsecAcl[];
}

/** textname of the accounts Kelvin manages: a full re-sync deletes such an account once its device is gone */
export const DEVICE_MARK = 'kelvin-device';
export const SERVER_ROLE = 'kelvin-server';
export const roleOf = (code: string) => `kelvin-device-${code}`;

/**
 * A device's role: publish to its own up/ack, subscribe to its own down (literal filters: Mosquitto 2.0 does not
 * expand %c in dynamic-security ACLs), and not receive its own reports back through a `#` filter.
 */
export function deviceAcls(prefix: string): DynsecAcl[] {
  return [
    ...deviceRules.publishTopics(prefix).map((topic) => ({ acltype: 'publishClientSend', topic, allow: true })),
    ...deviceRules.subscribeFilters(prefix).map((topic) => ({ acltype: 'subscribeLiteral', topic, allow: true })),
    ...deviceRules.publishTopics(prefix).map((topic) => ({ acltype: 'publishClientReceive', topic, allow: false })),
  ];
}

/** The server's role: the ingest's (shared) subscriptions — Mosquitto checks them with their `$share/…` prefix — and commands. */
export function serverAcls(shareGroup: string | undefined): DynsecAcl[] {
  return [
    ...ingestFilters(shareGroup).map((topic) => ({ acltype: 'subscribePattern', topic, allow: true })),
    { acltype: 'publishClientSend', topic: 'kelvin/+/+/down', allow: true },
  ];
}

const aclKey = (a: DynsecAcl) => `${a.acltype} ${a.allow ? 1 : 0} ${a.topic}`;
export const sameAcls = (a: DynsecAcl[] | undefined, b: DynsecAcl[]) =>
  !!a && a.length === b.length && a.map(aclKey).sort().join('\n') === b.map(aclKey).sort().join('\n');

export interface DynsecClient {
  /** Sends the commands as one control message; answers their responses in order (a command's error is in its response). */
  run(commands: DynsecCommand[]): Promise<DynsecResponse[]>;
  connected(): boolean;
  /** receive Mosquitto's notice log lines (one process counts refusals for all) */
  watchLog(on: boolean): void;
  close(): Promise<void>;
}

const TIMEOUT_MS = 15_000;

export function connectDynsec(opts: { url: string; username: string; password: string; onLog?: (line: string) => void }): DynsecClient {
  const prefix = crypto.randomBytes(6).toString('hex');
  let seq = 0;
  const pending = new Map<string, { resolve(r: DynsecResponse[]): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  let watching = false;
  const client = mqtt.connect(opts.url, {
    clientId: `kelvin-dynsec-${prefix}`, username: opts.username, password: opts.password, clean: true, reconnectPeriod: 2000,
  });
  client.on('error', () => {}); // reconnects on its own; a request meanwhile times out and is retried by its caller
  client.on('connect', () => {
    client.subscribe([RESPONSE, ...(watching ? [LOG_TOPIC] : [])], { qos: 0 });
  });
  client.on('message', (topic, payload) => {
    if (topic === LOG_TOPIC) return opts.onLog?.(payload.toString());
    let body: { responses?: DynsecResponse[] };
    try {
      body = JSON.parse(payload.toString());
    } catch {
      return;
    }
    const first = body.responses?.[0]?.correlationData;
    const p = first ? pending.get(first) : undefined;
    if (!p) return; // another process's answer
    pending.delete(first!);
    clearTimeout(p.timer);
    p.resolve(body.responses!);
  });

  return {
    run(commands) {
      if (!commands.length) return Promise.resolve([]);
      if (!client.connected) return Promise.reject(new Error('消息服务器未连接'));
      const tagged = commands.map((c) => ({ ...c, correlationData: `${prefix}-${++seq}` }));
      const key = tagged[0].correlationData;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(key);
          reject(new Error('消息服务器未在 15 秒内答复动态安全命令'));
        }, TIMEOUT_MS);
        pending.set(key, { resolve, reject, timer });
        client.publish(CONTROL, JSON.stringify({ commands: tagged }), { qos: 1 }, (err) => {
          if (!err) return;
          clearTimeout(timer);
          pending.delete(key);
          reject(err);
        });
      });
    },
    connected: () => client.connected,
    watchLog(on) {
      if (on === watching) return;
      watching = on;
      if (!client.connected) return;
      if (on) client.subscribe(LOG_TOPIC, { qos: 0 });
      else client.unsubscribe(LOG_TOPIC);
    },
    async close() {
      for (const p of pending.values()) {
        clearTimeout(p.timer);
        p.reject(new Error('已关闭'));
      }
      pending.clear();
      await client.endAsync();
    },
  };
}

/** What one device's broker account should be: its role's ACLs, and whether it may log in. */
export interface DesiredDevice {
  code: string;
  prefix: string;
  /** device and tenant enabled, and the broker holds its current secret */
  enabled: boolean;
  /** a secret to set (known in clear: just issued, or derived like the simulator's) */
  password?: string;
}

/**
 * The commands that bring one device's account (and role) from `client`/`role` to `want` (null: the device is gone,
 * its account and role are deleted; accounts Kelvin did not make are left alone).
 */
export function planDevice(code: string, want: DesiredDevice | null, client: DynsecClientInfo | undefined, role: DynsecRoleInfo | undefined): DynsecCommand[] {
  const rolename = roleOf(code);
  if (!want) {
    return [
      ...(client && client.textname === DEVICE_MARK ? [{ command: 'deleteClient', username: code }] : []),
      ...(role ? [{ command: 'deleteRole', rolename }] : []),
    ];
  }
  const out: DynsecCommand[] = [];
  const acls = deviceAcls(want.prefix);
  let roleMade = false;
  if (!role || !sameAcls(role.acls, acls)) {
    if (role) out.push({ command: 'deleteRole', rolename });
    out.push({ command: 'createRole', rolename, acls });
    roleMade = true;
  }
  if (!client) {
    out.push({
      command: 'createClient', username: code, clientid: code, textname: DEVICE_MARK, roles: [{ rolename }],
      ...(want.password !== undefined && { password: want.password }),
    });
    if (!want.enabled) out.push({ command: 'disableClient', username: code });
    return out;
  }
  if (client.clientid !== code || client.textname !== DEVICE_MARK) out.push({ command: 'modifyClient', username: code, clientid: code, textname: DEVICE_MARK });
  if (want.password !== undefined) out.push({ command: 'setClientPassword', username: code, password: want.password });
  if (roleMade || !client.roles?.some((r) => r.rolename === rolename)) out.push({ command: 'addClientRole', username: code, rolename });
  if (want.enabled && client.disabled) out.push({ command: 'enableClient', username: code });
  if (!want.enabled && !client.disabled) out.push({ command: 'disableClient', username: code });
  return out;
}

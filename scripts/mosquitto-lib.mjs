// A Mosquitto of its own for a test or a benchmark: a free port on 127.0.0.1, a temp dir with its config and its
// dynamic-security file (one admin account), log lines on $SYS/broker/log/# (Kelvin counts refused connections from
// them) and in a file. Never the system broker on 1883.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BINARIES = ['/usr/sbin/mosquitto', '/usr/local/sbin/mosquitto', '/usr/bin/mosquitto', '/opt/homebrew/sbin/mosquitto'];
const PLUGINS = ['/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so', '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so', '/usr/lib/mosquitto_dynamic_security.so', '/usr/local/lib/mosquitto_dynamic_security.so'];

/** The mosquitto binary and its dynamic-security plugin, or null when either is missing. */
export function findMosquitto() {
  const bin = BINARIES.find((f) => fs.existsSync(f));
  const plugin = PLUGINS.find((f) => fs.existsSync(f));
  return bin && plugin ? { bin, plugin } : null;
}

async function freePort() {
  const server = net.createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/** A dynamic-security account as the plugin stores it: PBKDF2-SHA512 over the password with a random salt. */
function dynsecAccount(username, password, rolename) {
  const salt = crypto.randomBytes(12);
  const hash = crypto.pbkdf2Sync(password, salt, 101, 64, 'sha512');
  return { username, password: hash.toString('base64'), salt: salt.toString('base64'), iterations: 101, roles: [{ rolename }] };
}

/**
 * Starts mosquitto with dynamic security; `admin` is the account allowed `$CONTROL/dynamic-security/#` and `$SYS/#`
 * (what `mosquitto_ctrl dynsec init` makes). Settings for Kelvin's ingest: no in-flight cap on messages to a client
 * (PUBACK waits for the commit) and a deep queue for a persistent session whose process is down.
 */
export async function startMosquitto({ admin = { username: 'kelvin-admin', password: crypto.randomBytes(12).toString('hex') } } = {}) {
  const found = findMosquitto();
  if (!found) throw new Error('未找到 mosquitto 或其动态安全插件（Debian：apt-get install mosquitto）');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-mosquitto-'));
  const port = await freePort();
  const dynsec = {
    clients: [dynsecAccount(admin.username, admin.password, 'admin')],
    roles: [{
      rolename: 'admin',
      acls: [
        { acltype: 'publishClientSend', topic: '$CONTROL/dynamic-security/#', allow: true },
        { acltype: 'publishClientReceive', topic: '$CONTROL/dynamic-security/#', allow: true },
        { acltype: 'subscribePattern', topic: '$CONTROL/dynamic-security/#', allow: true },
        { acltype: 'publishClientReceive', topic: '$SYS/#', allow: true },
        { acltype: 'subscribePattern', topic: '$SYS/#', allow: true },
      ],
    }],
    defaultACLAccess: { publishClientSend: false, publishClientReceive: true, subscribe: false, unsubscribe: true },
  };
  fs.writeFileSync(path.join(dir, 'dynsec.json'), JSON.stringify(dynsec, null, 2));
  const logFile = path.join(dir, 'mosquitto.log');
  const conf = [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    `plugin ${found.plugin}`,
    `plugin_opt_config_file ${path.join(dir, 'dynsec.json')}`,
    'persistence false',
    'max_inflight_messages 0',
    // a bound, not 0: with "no maximum" Mosquitto 2.0.11 drops an MQTT 5 client whose QoS 1 publish it refused
    'max_queued_messages 1000000',
    'log_dest topic',
    `log_dest file ${logFile}`,
    'log_type error', 'log_type warning', 'log_type notice', 'log_type information',
    // as root mosquitto would switch to the `mosquitto` user, who may not write the temp dir
    ...(process.getuid?.() === 0 ? ['user root'] : []),
  ];
  fs.writeFileSync(path.join(dir, 'mosquitto.conf'), conf.join('\n') + '\n');
  const child = spawn(found.bin, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto 退出 (${child.exitCode})：${stderr}${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''}`);
    const up = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`mosquitto 未在 10 秒内监听端口 ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    admin,
    dir,
    pid: child.pid,
    /** the broker's log so far */
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

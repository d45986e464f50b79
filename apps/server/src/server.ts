import closeWithGrace from 'close-with-grace';
import { loadConfig } from './config.ts';
import { buildKelvin } from './app.ts';
import { redactUrlPassword } from './lib/redact.ts';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Kelvin 需要 Node.js 20.19 或更高版本，当前为 ${process.versions.node}`);
  process.exit(1);
}

async function main() {
  const config = loadConfig();
  const kelvin = await buildKelvin(config);
  // SIGTERM/SIGINT: stop accepting, finish the requests in flight and the ingest batch being written, exit 0; what is
  // not done after 10 s exits 1 (a second signal at once)
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    const started = Date.now();
    if (err) kelvin.app.log.error({ err }, '异常退出');
    else console.log(`收到 ${signal ?? '退出'}，正在停止：不再接受新请求，处理完进行中的请求与当前接入批次后退出`);
    await kelvin.close();
    if (!err) console.log(`Kelvin 已停止（用时 ${Date.now() - started} ms）`);
  });
  // after this line nothing new is accepted: new requests get 503, new connections are refused (the process tests wait for it)
  kelvin.app.addHook('preClose', (done) => {
    console.log('已停止接受新请求');
    done();
  });
  const address = await kelvin.app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${new URL(address).port}`;
  const lines = [
    '',
    '==================== Kelvin 已启动 ====================',
    `  控制台地址:  ${url}`,
    `  接口文档:    ${url}/api/docs`,
    `  数据目录:    ${config.databaseUrl ? '(PostgreSQL)' : config.dataDir}`,
    `  MQTT:        ${config.mqttUrl ? redactUrlPassword(config.mqttUrl) : `mqtt://localhost:${kelvin.mqtt?.port ?? config.mqttPort}（内置）`}`,
  ];
  if (kelvin.mqtt?.tlsPort) lines.push(`  MQTTS:       mqtts://localhost:${kelvin.mqtt.tlsPort}`);
  if (kelvin.mqtt?.wsPort) lines.push(`  WebSocket:   ${kelvin.mqtt.wsSecure ? 'wss' : 'ws'}://localhost:${kelvin.mqtt.wsPort}/mqtt`);
  lines.push(`  设备协议:    ${url}/api/docs/mqtt.html`);
  const { admin, demo } = kelvin.firstStart;
  if (admin) lines.push(`  平台管理员:  ${admin.username} / ${admin.generated ? admin.password : '(KELVIN_ADMIN_PASSWORD)'}   ← 仅显示这一次，请妥善保存`);
  if (demo) lines.push(`  示范租户:    ${demo.username} / ${demo.password}   ← 仅显示这一次`);
  if (!admin) lines.push('  平台管理员:  admin（密码在首次启动时已显示）');
  lines.push('=======================================================', '');
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

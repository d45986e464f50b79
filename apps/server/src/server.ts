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
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) kelvin.app.log.error({ err }, '异常退出');
    await kelvin.close();
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

import { parseArgs } from 'node:util';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { seedDemo } from '../db/seed/demo.ts';
import { syncMenus } from '../db/seed/menus.ts';
import { runLoad, type LoadStep } from './load.ts';
import { DEMO_DEVICES_PER_TYPE, ensureSimTenant, provisionSimulatedDevicesDetailed } from './provision.ts';
import { startSimulator } from './runner.ts';

const HELP = `用法: ./kelvin simulate [选项]

  --tenant CODE      模拟哪个租户的设备（默认 demo；不存在的租户会自动创建，含模拟项目）
  --per-type N       每种设备类型至少 N 台（默认 ${DEMO_DEVICES_PER_TYPE}；不足时自动创建）
  --type CODE        只模拟这一种设备类型（可重复）
  --rate R           上报频率倍数（默认 1；2 表示比设备默认周期快一倍）
  --dropouts N       每台设备每小时掉线次数（默认 0.3）
  --broker URL       MQTT 地址（默认 MQTT_URL，或 mqtt://127.0.0.1:MQTT_PORT）
  --adopt            接管该租户里不是模拟器发放密钥的设备（会替换其密钥）
  压测（bench ingest 使用）:
  --load STEPS       按 "速率:秒数,速率:秒数…" 发送上报，例如 2000:15,10000:60（每条 3 个字段，QoS 1）
  --devices N        压测设备数（默认 1000，电能表 device20090）
  --json             每一步输出一行 JSON 结果
  --provision-only   只创建（或补齐）设备后退出，不连接（外部消息服务器的账号由服务端启动时的全量同步建立）

数据库与 MQTT 端口取自环境变量（KELVIN_DATA_DIR、DATABASE_URL、MQTT_PORT、MQTT_URL），与服务端相同。`;

async function main() {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string', default: 'demo' },
      'per-type': { type: 'string' },
      type: { type: 'string', multiple: true },
      rate: { type: 'string', default: '1' },
      dropouts: { type: 'string', default: '0.3' },
      broker: { type: 'string' },
      adopt: { type: 'boolean', default: false },
      load: { type: 'string' },
      devices: { type: 'string', default: '1000' },
      json: { type: 'boolean', default: false },
      'provision-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const config = loadConfig();
  const url = values.broker ?? config.mqttUrl ?? `mqtt://127.0.0.1:${config.mqttPort}`;
  const types = values.type ?? (values.load ? ['device20090'] : undefined);
  for (const t of types ?? []) if (!DEVICE_TYPE_BY_CODE.has(t)) throw new Error(`设备类型 ${t} 不存在`);
  const perType = values.load ? Number(values.devices) : Number(values['per-type'] ?? DEMO_DEVICES_PER_TYPE);
  if (!Number.isInteger(perType) || perType < 0) throw new Error('设备数量必须是非负整数');

  const { db } = await openDatabase(config);
  let provisioned;
  try {
    await syncMenus(db);
    if (values.tenant === 'demo') await seedDemo(db);
    else await ensureSimTenant(db, values.tenant, types ? [...new Set(types.flatMap((t) => DEVICE_TYPE_BY_CODE.get(t)!.projectTypes.slice(0, 1)))] : ['PT5030', 'PT1011', 'PT2010', 'PT4020', 'PT5010', 'PT5020', 'PT1013', 'PT2013', 'PT2012', 'PT2015', 'PT4010']);
    provisioned = await provisionSimulatedDevicesDetailed(db, { tenantCode: values.tenant, perType, types, adopt: values.adopt });
  } finally {
    await db.destroy();
  }
  const { devices, created, adopted, skipped } = provisioned;
  const note = [created && `新建 ${created} 台`, adopted && `接管 ${adopted} 台`, skipped && `跳过 ${skipped} 台（密钥不是模拟器发放的，可加 --adopt）`].filter(Boolean).join('，');
  if (values['provision-only']) {
    console.log(values.json ? JSON.stringify({ provisioned: devices.length, created }) : `租户 ${values.tenant}：${devices.length} 台设备${note ? `（${note}）` : ''}`);
    return;
  }
  if (!values.json) console.log(`租户 ${values.tenant}：模拟 ${devices.length} 台设备${note ? `（${note}）` : ''}，连接 ${url}`);

  if (values.load) {
    const steps: LoadStep[] = values.load.split(',').map((s) => {
      const [rate, seconds] = s.split(':').map(Number);
      if (!(rate > 0) || !(seconds > 0)) throw new Error(`压测步骤格式不正确: ${s}（应为 速率:秒数）`);
      return { rate, seconds };
    });
    const lgDevices = devices.filter((d) => d.type === 'device20090').slice(0, Number(values.devices));
    await runLoad({
      url,
      devices: lgDevices,
      steps,
      onReady: () => console.log(values.json ? JSON.stringify({ ready: lgDevices.length }) : `${lgDevices.length} 台设备已连接，开始发送`),
      onStep: (r) => console.log(values.json ? JSON.stringify(r) : `${r.rate} 条/秒 × ${r.seconds} 秒：发送 ${r.published}，确认 ${r.acked}（${r.ackedPerSecond} 条/秒，${r.pointsPerSecond} 点/秒），p50 ${r.p50Ms} ms，p95 ${r.p95Ms} ms`),
    });
    return;
  }

  const sim = startSimulator({ url, devices, rate: Number(values.rate), dropoutsPerHour: Number(values.dropouts) });
  const timer = setInterval(() => {
    const s = sim.stats();
    console.log(`在线 ${s.connected}/${s.devices}，上报 ${s.reports}，执行指令 ${s.acked}，拒绝 ${s.rejected}，掉线 ${s.dropouts}`);
  }, 10_000);
  const stop = async () => {
    clearInterval(timer);
    await sim.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

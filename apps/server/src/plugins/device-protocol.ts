import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VERSION } from '@kelvin/contracts/version';
import { deviceProtocolDocument, type JsonObject, type ProtocolServer } from '@kelvin/contracts/device-protocol';
import type { MqttHub } from './mqtt.ts';

/**
 * The device protocol beside the OpenAPI page: GET /api/docs/mqtt (the AsyncAPI 3 document, JSON) and
 * /api/docs/mqtt.html (the same document as a page: no script, so the console's CSP holds as it is).
 */

/** The host name the caller used to reach the console: devices on the same network reach the broker there too. */
function hostOf(req: FastifyRequest): string {
  const host = req.hostname;
  return /^[A-Za-z0-9.-]{1,253}$/.test(host) || /^\[[0-9A-Fa-f:.]+\]$/.test(host) ? host : 'localhost';
}

/** The broker's listeners as AsyncAPI servers: the embedded one's ports, or the external broker named by MQTT_URL. */
export function protocolServers(mqtt: MqttHub | null, mqttUrl: string | undefined, host: string): ProtocolServer[] {
  if (!mqtt) return [];
  if (mqtt.external) {
    try {
      const u = new URL(mqttUrl ?? '');
      const secure = u.protocol === 'mqtts:' || u.protocol === 'wss:';
      const ws = u.protocol === 'ws:' || u.protocol === 'wss:';
      return [{
        name: ws ? (secure ? 'wss' : 'ws') : secure ? 'mqtts' : 'mqtt',
        host: `${u.hostname}:${u.port || (secure ? 8883 : 1883)}`,
        protocol: ws ? (secure ? 'wss' : 'ws') : secure ? 'secure-mqtt' : 'mqtt',
        ...(ws ? { pathname: u.pathname || '/mqtt' } : {}),
        description: '外部消息服务器（MQTT_URL 所指，平台自己连接的地址）：设备连接的公网地址与端口以部署为准',
      }];
    } catch {
      return [];
    }
  }
  const servers: ProtocolServer[] = [{ name: 'mqtt', host: `${host}:${mqtt.port}`, protocol: 'mqtt', description: '内置 MQTT 服务（明文，适合局域网）' }];
  if (mqtt.tlsPort) servers.push({ name: 'mqtts', host: `${host}:${mqtt.tlsPort}`, protocol: 'secure-mqtt', description: 'MQTT over TLS：设备经公网接入时使用' });
  if (mqtt.wsPort) {
    servers.push({
      name: mqtt.wsSecure ? 'wss' : 'ws', host: `${host}:${mqtt.wsPort}`, protocol: mqtt.wsSecure ? 'wss' : 'ws', pathname: '/mqtt',
      description: 'MQTT over WebSocket：供浏览器中的调试工具使用（子协议 mqtt）',
    });
  }
  return servers;
}

// ── the page ─────────────────────────────────────────────────────────────────────────────────────────────────────
const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const json = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;
type Obj = Record<string, any>;

function fieldRows(fields: Obj): string {
  return Object.entries(fields).map(([code, s]: [string, Obj]) => {
    const values = s.enum
      ? (s.enum as number[]).map((v) => `${v} = ${esc(s['x-kelvin-enum-labels']?.[String(v)])}`).join('；')
      : s.type === 'number' ? `${esc(s.minimum)} ～ ${esc(s.maximum)}${s['x-kelvin-step'] !== undefined ? `（精度 ${esc(s['x-kelvin-step'])}）` : ''}`
        : s.pattern ? 'HH:MM' : `文本，最长 ${esc(s.maxLength)} 字`;
    return `<tr><td><code>${esc(code)}</code></td><td>${esc(s.title)}</td><td>${esc(s.type)}</td><td>${esc(s['x-kelvin-unit'] ?? '')}</td><td>${values}</td><td>${s['x-kelvin-writable'] ? '可写' : '只读'}</td></tr>`;
  }).join('');
}

function typeSection(report: Obj, command: Obj): string {
  const t = report['x-kelvin-device-type'] as Obj;
  const fields = report.payload.properties.fields.properties as Obj;
  const variants: Obj[] = command.payload.oneOf ?? [command.payload];
  const write = variants.find((v) => v.properties.action === undefined);
  const action = variants.find((v) => v.properties.action !== undefined)!.properties.action as Obj;
  return `<section id="${esc(t.code)}"><h3>${esc(t.name)} <code>${esc(t.code)}</code></h3>
<p>${esc(t.category)}；心跳周期 ${esc(t.heartbeatSeconds)} 秒${t.sleeps ? '；4G 设备，可休眠' : ''}。${esc(report.description)}</p>
<table><thead><tr><th>字段</th><th>名称</th><th>类型</th><th>单位</th><th>量程 / 取值</th><th>读写</th></tr></thead><tbody>${fieldRows(fields)}</tbody></table>
<p>可写字段（指令 fields 中放其中一个）：${write ? Object.keys(write.properties.fields.properties).map((c) => `<code>${esc(c)}</code>`).join(' ') : '无'}；
设备操作（action）：${(action.enum as string[]).map((a) => `<code>${esc(a)}</code> ${esc(action['x-kelvin-enum-labels'][a])}`).join('、')}。</p>
<details><summary>示例</summary>上报 <code>up</code>：${json(report.examples[0].payload)}指令 <code>down</code>：${(command.examples as Obj[]).map((e) => json(e.payload)).join('')}</details>
</section>`;
}

export function deviceProtocolHtml(doc: JsonObject): string {
  const d = doc as Obj;
  const messages = d.components.messages as Obj;
  const codes = Object.keys(messages).filter((k) => k.startsWith('report_')).map((k) => k.slice('report_'.length));
  const scheme = (protocol: string) => (protocol === 'secure-mqtt' ? 'mqtts' : protocol);
  const servers = Object.entries(d.servers as Obj).map(([name, s]: [string, Obj]) =>
    `<tr><td>${esc(name)}</td><td><code>${esc(scheme(s.protocol))}://${esc(s.host)}${esc(s.pathname ?? '')}</code></td><td>${esc(s.description)}</td></tr>`).join('');
  const channels = Object.values(d.channels as Obj).map((c: Obj) => `<tr><td><code>${esc(c.address)}</code></td><td>${esc(c.title)}</td><td>${esc(c.description)}</td></tr>`).join('');
  const rules = (d.info['x-kelvin-rules'] as Obj[]).map((r) => `<li><b>${esc(r.title)}</b>：${esc(r.text)}</li>`).join('');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(d.info.title)}</title>
<style>
body{font:14px/1.6 -apple-system,"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#1f1f1f}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #e5e5e5;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#fafafa}code{background:#f5f5f5;padding:0 4px;border-radius:3px}pre{background:#f5f5f5;padding:8px;overflow:auto}
nav a{margin-right:12px;white-space:nowrap}section{border-top:1px solid #eee;margin-top:16px}h3 code{font-size:13px}
</style></head><body>
<h1>${esc(d.info.title)} <small>版本 ${esc(d.info.version)}</small></h1>
<p>AsyncAPI ${esc(d.asyncapi)} 文档：<a href="/api/docs/mqtt">/api/docs/mqtt</a>（JSON，可导入 AsyncAPI 工具）· 控制台接口：<a href="/api/docs">/api/docs</a></p>
<h2>连接地址</h2><table><thead><tr><th>名称</th><th>地址</th><th>说明</th></tr></thead><tbody>${servers || '<tr><td colspan="3">本进程未启用 MQTT</td></tr>'}</tbody></table>
<p>${esc(d.components.securitySchemes.deviceSecret.description)}</p>
<h2>主题</h2><table><thead><tr><th>主题</th><th>名称</th><th>消息</th></tr></thead><tbody>${channels}</tbody></table>
<p>{tenant} = ${esc(d.channels.up.parameters.tenant.description)}；{device} = ${esc(d.channels.up.parameters.device.description)}</p>
<h2>规则</h2><ul>${rules}</ul>
<h2>应答</h2><p>${esc(messages.ack.description)}</p>${(messages.ack.examples as Obj[]).map((e) => json(e.payload)).join('')}
<h2>设备类型</h2><nav>${codes.map((c) => `<a href="#${esc(c)}">${esc(messages[`report_${c}`]['x-kelvin-device-type'].name)}</a>`).join(' ')}</nav>
${codes.map((c) => typeSection(messages[`report_${c}`], messages[`command_${c}`])).join('\n')}
</body></html>`;
}

export async function deviceProtocolRoutes(app: FastifyInstance, opts: { mqtt: MqttHub | null; mqttUrl?: string }) {
  const document = (req: FastifyRequest) => deviceProtocolDocument({ version: VERSION, servers: protocolServers(opts.mqtt, opts.mqttUrl, hostOf(req)) });
  // documents, like /api/docs/json: outside the OpenAPI document and its { code, msg, data } envelope
  app.get('/api/docs/mqtt', { schema: { hide: true }, config: { access: 'public' } }, async (req) => document(req));
  app.get('/api/docs/mqtt.html', { schema: { hide: true }, config: { access: 'public' } }, async (req, reply) => {
    reply.type('text/html; charset=utf-8');
    return deviceProtocolHtml(document(req));
  });
}

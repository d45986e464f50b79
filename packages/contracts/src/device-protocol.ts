import { DEVICE_ACTION_LABELS, DEVICE_CATEGORY_LABELS, DEVICE_TYPES, allowedRange } from './device-registry.ts';
import type { DeviceTypeDef, FieldDef } from './device-types.ts';

/**
 * The device protocol for third-party hardware (design §7's MQTT contract) as an AsyncAPI 3 document, generated from
 * the device-type registry: a new type or field appears here without anything else to write. The server serves it
 * at /api/docs/mqtt (JSON) and /api/docs/mqtt.html (the same document as a page).
 */

/** The limits and timings the broker, the ingest and the command service apply (one source; they import these). */
export const DEVICE_PROTOCOL = {
  /** a larger message is acknowledged, dropped and counted */
  maxPayloadBytes: 16 * 1024,
  /** fields in one report */
  maxFields: 64,
  /** client id = username = device code */
  maxClientIdLength: 64,
  /** a report's ts further ahead than this (or before 2000) is replaced by the receive time */
  maxClockSkewSeconds: 5 * 60,
  /** a command sent but not acknowledged is sent again after this long, when the device is heard from */
  resendAfterSeconds: 30,
  /** how long a command waits for a device that is offline (types that sleep: sleeperTtlSeconds) */
  commandTtlSeconds: 10 * 60,
  sleeperTtlSeconds: 6 * 60 * 60,
  /** an ack's error text is kept up to this length */
  maxAckErrorLength: 200,
} as const;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue | undefined };
export type JsonObject = { [key: string]: JsonValue | undefined };

export type ServerProtocol = 'mqtt' | 'secure-mqtt' | 'ws' | 'wss';
export interface ProtocolServer {
  /** key in `servers` */
  name: string;
  /** host:port devices connect to */
  host: string;
  protocol: ServerProtocol;
  /** WebSocket path */
  pathname?: string;
  description: string;
}

const TIME_PATTERN = '^([01]?\\d|2[0-3]):[0-5]\\d$';
const ref = (path: string) => ({ $ref: path });
const MQTT_BINDING = { mqtt: { qos: 1, retain: false, bindingVersion: '0.2.0' } };

/** The rules a device maker needs besides the payloads (the page shows them as a list; the document's description too). */
export const PROTOCOL_RULES: readonly { title: string; text: string }[] = [
  { title: '连接', text: `MQTT 3.1.1。客户端标识（Client ID）= 用户名 = 设备编号（最长 ${DEVICE_PROTOCOL.maxClientIdLength} 个字符，不得含 + # / 或空白），密码 = 设备接入密钥。匿名连接、用户名与客户端标识不一致、密钥错误或设备已停用的连接都会被拒绝（CONNACK 4 / 5）。` },
  { title: '主题权限', text: '设备只能发布到本设备的 up、ack 主题，只能订阅本设备的 down 主题；发布到其他主题会被断开连接，订阅其他主题会被拒绝（SUBACK 失败）。保留消息（retain）不会被保留。' },
  { title: '服务质量', text: '上报与应答请用 QoS 1：平台在数据写入数据库之后才回 PUBACK，收到 PUBACK 即表示已保存；没有收到就重发（可带 DUP 标志）。指令以 QoS 1 下发，请以 QoS 1 订阅 down 主题。' },
  { title: '上报的幂等', text: `同一设备、同一字段、同一时间戳（ts）的读数只保存一次，所以重发同一条上报是安全的。ts 为毫秒（小于 10^11 时按秒）；缺少、早于 2000 年或比平台时间超前 ${DEVICE_PROTOCOL.maxClockSkewSeconds / 60} 分钟以上的 ts 以平台接收时间代替。` },
  { title: '上报的校验', text: `一条上报最多 ${DEVICE_PROTOCOL.maxFields} 个字段、${DEVICE_PROTOCOL.maxPayloadBytes / 1024} KB。只接受本设备类型登记的字段：类型没有的字段、超出量程或不是有效取值的读数逐个丢弃并在「服务监控」中计数，同一条上报的其他读数照常保存；数值按字段精度取整。` },
  { title: '指令与应答', text: `指令 { id, fields } 每次写一个字段（或 { id, action, fields: {} } 执行一个操作）。设备执行后向 ack 主题回 { id, ok: true }，拒绝时回 { id, ok: false, error: "原因" }（原因最多保留 ${DEVICE_PROTOCOL.maxAckErrorLength} 字）。id 是指令的唯一编号：同一 id 可能收到不止一次（QoS 1 重投；发出 ${DEVICE_PROTOCOL.resendAfterSeconds} 秒仍未应答时，设备再次上报或重连后会重发），设备应按 id 只执行一次，并对重复的指令再回一次应答。平台只认第一条应答，之后的应答与不属于本设备的 id 被忽略。` },
  { title: '离线与有效期', text: `设备离线时指令先保存，设备连接并订阅 down 主题或再次上报时下发；超过有效期（默认 ${DEVICE_PROTOCOL.commandTtlSeconds / 60} 分钟，会休眠的 4G 设备 ${DEVICE_PROTOCOL.sleeperTtlSeconds / 3600} 小时）未应答的指令记为「已过期」。设备在其类型的心跳周期内没有上报即显示为离线。` },
];

function fieldDescription(f: FieldDef, type: DeviceTypeDef): string {
  const parts = [f.label];
  if (f.kind === 'number') parts.push(`${f.unit ? `单位 ${f.unit}，` : ''}量程 ${f.min}～${f.max}${f.step !== undefined ? `，精度 ${f.step}` : ''}`);
  else parts.push(allowedRange(f));
  if (f.limits) parts.push(`写入时还受本设备 ${[f.limits.min, f.limits.max].filter(Boolean).join('、')} 的当前值限制`);
  if (type.programField === f.code) parts.push('周程序文本，例如 H=weekend;1 07:00 f00=1,f04=22;1 22:00 f00=0（H=节假日规则，星期 1～7，时间，字段=值）');
  parts.push(f.writable ? '可写' : '只读');
  return parts.join('；');
}

/** A field as a JSON Schema (AsyncAPI schema object): type, range or allowed values; Chinese label and unit as extensions too. */
export function fieldSchema(f: FieldDef, type: DeviceTypeDef): JsonObject {
  const base: JsonObject = {
    title: f.label,
    description: fieldDescription(f, type),
    'x-kelvin-kind': f.kind,
    'x-kelvin-writable': f.writable,
    ...(f.unit ? { 'x-kelvin-unit': f.unit } : {}),
  };
  switch (f.kind) {
    case 'number':
      return { ...base, type: 'number', minimum: f.min, maximum: f.max, ...(f.step !== undefined ? { 'x-kelvin-step': f.step } : {}) };
    case 'enum':
    case 'bool':
      return { ...base, type: 'integer', enum: Object.keys(f.options ?? {}).map(Number), 'x-kelvin-enum-labels': { ...f.options } };
    case 'time':
      return { ...base, type: 'string', pattern: TIME_PATTERN, examples: [String(f.initial)] };
    default:
      return { ...base, type: 'string', maxLength: f.maxLength ?? 64 };
  }
}

const exampleValue = (f: FieldDef): JsonValue => (f.kind === 'time' || f.kind === 'text' ? String(f.initial) : Number(f.initial));

function reportMessage(t: DeviceTypeDef): JsonObject {
  const properties = Object.fromEntries(t.fields.map((f) => [f.code, fieldSchema(f, t)]));
  const shown = t.fields.filter((f) => t.listFields.includes(f.code));
  return {
    name: `report_${t.code}`,
    title: `${t.name}（${t.code}）上报`,
    summary: `${DEVICE_CATEGORY_LABELS[t.category]}的读数与状态`,
    description: `设备类型 ${t.code}「${t.name}」向 up 主题上报读数：fields 里放本类型的字段（任意几个，至少一个）。`
      + `${t.heartbeatSeconds} 秒内没有上报即显示为离线${t.sleeps ? '；4G 设备可在两次唤醒之间休眠，唤醒上报后再收取等待中的指令' : ''}。`,
    contentType: 'application/json',
    'x-kelvin-device-type': { code: t.code, name: t.name, category: DEVICE_CATEGORY_LABELS[t.category], heartbeatSeconds: t.heartbeatSeconds, sleeps: t.sleeps },
    payload: {
      type: 'object',
      required: ['fields'],
      properties: {
        ts: { type: 'number', description: '读数时间：Unix 毫秒（小于 10^11 时按秒）；可省略，省略时取平台接收时间' },
        fields: { type: 'object', minProperties: 1, maxProperties: DEVICE_PROTOCOL.maxFields, additionalProperties: false, properties },
      },
    },
    examples: [{ name: '上报', payload: { ts: 1767225600000, fields: Object.fromEntries(shown.map((f) => [f.code, exampleValue(f)])) } }],
    bindings: { mqtt: { bindingVersion: '0.2.0' } },
  };
}

const COMMAND_ID = { type: 'integer', minimum: 1, description: '指令编号：平台内唯一，应答时原样带回；同一编号只执行一次' };

function commandMessage(t: DeviceTypeDef): JsonObject {
  const writable = t.fields.filter((f) => f.writable);
  const first = writable[0];
  const variants: JsonObject[] = [];
  if (writable.length) {
    variants.push({
      title: '写入参数',
      type: 'object',
      required: ['id', 'fields'],
      properties: {
        id: COMMAND_ID,
        fields: { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: false, properties: Object.fromEntries(writable.map((f) => [f.code, fieldSchema(f, t)])) },
      },
    });
  }
  variants.push({
    title: '设备操作',
    type: 'object',
    required: ['id', 'action', 'fields'],
    properties: {
      id: COMMAND_ID,
      action: { type: 'string', enum: [...t.actions], 'x-kelvin-enum-labels': Object.fromEntries(t.actions.map((a) => [a, DEVICE_ACTION_LABELS[a]])) },
      fields: { type: 'object', maxProperties: 0 },
    },
  });
  return {
    name: `command_${t.code}`,
    title: `${t.name}（${t.code}）指令`,
    summary: writable.length ? `写入 ${writable.map((f) => f.code).join('、')} 之一，或执行设备操作` : '执行设备操作（本类型没有可写字段）',
    description: `平台向 down 主题下发的指令。执行后向 ack 主题应答；同一 id 只执行一次。有效期 ${(t.sleeps ? DEVICE_PROTOCOL.sleeperTtlSeconds : DEVICE_PROTOCOL.commandTtlSeconds) / 60} 分钟（调用方可另定）。`,
    contentType: 'application/json',
    correlationId: { location: '$message.payload#/id', description: '应答里的 id 与指令的 id 相同' },
    payload: variants.length === 1 ? variants[0] : { oneOf: variants },
    examples: [
      ...(first ? [{ name: '写入参数', payload: { id: 1024, fields: { [first.code]: exampleValue(first) } } }] : []),
      { name: '设备操作', payload: { id: 1025, action: t.actions[0], fields: {} } },
    ],
    bindings: { mqtt: { bindingVersion: '0.2.0' } },
  };
}

const ACK_MESSAGE: JsonObject = {
  name: 'ack',
  title: '指令应答',
  summary: '设备执行（或拒绝）一条指令后回复',
  description: '对每条收到的指令回复一次（重复收到的同一 id 再回一次也无妨：平台只认第一条）。',
  contentType: 'application/json',
  correlationId: { location: '$message.payload#/id', description: '所应答指令的 id' },
  payload: {
    type: 'object',
    required: ['id', 'ok'],
    properties: {
      id: { type: 'integer', minimum: 1, description: '所应答指令的 id' },
      ok: { type: 'boolean', description: 'true = 已执行；false = 拒绝执行' },
      error: { type: 'string', maxLength: DEVICE_PROTOCOL.maxAckErrorLength, description: '拒绝的原因（中文），ok 为 false 时填写' },
    },
  },
  examples: [
    { name: '已执行', payload: { id: 1024, ok: true } },
    { name: '拒绝', payload: { id: 1024, ok: false, error: '设定温度超出设备限值 5～35 °C' } },
  ],
  bindings: { mqtt: { bindingVersion: '0.2.0' } },
};

const PARAMETERS = {
  tenant: { description: '租户编码（运营公司的编码，设备接入密钥页面的主题里可见）' },
  device: { description: '设备编号（= 客户端标识 = 用户名）' },
};

/** The AsyncAPI 3.0.0 document of the device protocol, from the device's point of view (send = the device publishes). */
export function deviceProtocolDocument(opts: { version: string; servers: readonly ProtocolServer[]; types?: readonly DeviceTypeDef[] }): JsonObject {
  const types = opts.types ?? DEVICE_TYPES;
  const messages: JsonObject = { ack: ACK_MESSAGE };
  for (const t of types) {
    messages[`report_${t.code}`] = reportMessage(t);
    messages[`command_${t.code}`] = commandMessage(t);
  }
  const channelMessages = (prefix: string) => Object.fromEntries(types.map((t) => [`${prefix}_${t.code}`, ref(`#/components/messages/${prefix}_${t.code}`)]));
  const opMessages = (channel: string, prefix: string) => types.map((t) => ref(`#/channels/${channel}/messages/${prefix}_${t.code}`));
  const servers = Object.fromEntries(opts.servers.map((s) => [s.name, {
    host: s.host,
    protocol: s.protocol,
    protocolVersion: '3.1.1',
    ...(s.pathname ? { pathname: s.pathname } : {}),
    description: s.description,
    security: [ref('#/components/securitySchemes/deviceSecret')],
  }]));
  return {
    asyncapi: '3.0.0',
    id: 'urn:kelvin:device-protocol',
    info: {
      title: 'Kelvin 设备 MQTT 协议',
      version: opts.version,
      description: [
        '第三方设备接入 Kelvin 的 MQTT 协议。本文档从设备的角度描述：send = 设备发布，receive = 设备订阅。',
        '每个设备类型的上报字段、单位、量程、可写字段与取值都来自平台的设备类型登记表；消息结构取决于设备在平台登记的类型。',
        '',
        ...PROTOCOL_RULES.map((r) => `- **${r.title}**：${r.text}`),
      ].join('\n'),
      'x-kelvin-rules': PROTOCOL_RULES.map((r) => ({ ...r })),
    },
    defaultContentType: 'application/json',
    servers,
    channels: {
      up: {
        address: 'kelvin/{tenant}/{device}/up',
        title: '上报',
        description: '设备上报读数与状态（JSON：{ ts, fields }）',
        parameters: PARAMETERS,
        messages: channelMessages('report'),
      },
      down: {
        address: 'kelvin/{tenant}/{device}/down',
        title: '指令',
        description: '平台下发指令（JSON：{ id, fields } 或 { id, action, fields: {} }）',
        parameters: PARAMETERS,
        messages: channelMessages('command'),
      },
      ack: {
        address: 'kelvin/{tenant}/{device}/ack',
        title: '应答',
        description: '设备应答指令（JSON：{ id, ok, error? }）',
        parameters: PARAMETERS,
        messages: { ack: ref('#/components/messages/ack') },
      },
    },
    operations: {
      sendReport: {
        action: 'send',
        channel: ref('#/channels/up'),
        title: '上报读数',
        summary: 'QoS 1；收到 PUBACK 即已保存',
        messages: opMessages('up', 'report'),
        bindings: MQTT_BINDING,
      },
      receiveCommand: {
        action: 'receive',
        channel: ref('#/channels/down'),
        title: '接收指令',
        summary: '以 QoS 1 订阅；同一 id 只执行一次',
        messages: opMessages('down', 'command'),
        bindings: MQTT_BINDING,
        reply: { channel: ref('#/channels/ack'), messages: [ref('#/channels/ack/messages/ack')] },
      },
      sendAck: {
        action: 'send',
        channel: ref('#/channels/ack'),
        title: '应答指令',
        summary: 'QoS 1；每条收到的指令回复一次',
        messages: [ref('#/channels/ack/messages/ack')],
        bindings: MQTT_BINDING,
      },
    },
    components: {
      messages,
      securitySchemes: {
        deviceSecret: {
          type: 'userPassword',
          description: '用户名 = 客户端标识 = 设备编号；密码 = 设备接入密钥（控制台：设备管理 → 设备列表 → 该设备的「密钥」，只显示一次）',
        },
      },
    },
  };
}

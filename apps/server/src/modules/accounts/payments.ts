import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { storedSecret } from '../../db/secrets.ts';

/**
 * Payment providers. The built-in sandbox (demo, tests, offline installs) and WeChat Pay API v3 Native by
 * configuration. A provider makes an order's QR payload and verifies a callback into a PaidNotice; the service
 * credits the order once whatever the number of deliveries.
 */

export interface ProviderConfig {
  provider: 'sandbox' | 'wechat';
  mchId: string;
  appId: string;
  apiKey: string;
  privateKey: string | null;
  certSerialNo: string | null;
  platformPublicKey: string | null;
  notifyUrl: string | null;
}

export interface PaidNotice { orderNo: string; txnId: string; amountFen: number; paidAt: number }

export class SignatureError extends Error {}

// ---------------------------------------------------------------- keys at rest

/** AES-256-GCM under a key kept in the database's secret table: v1.iv.tag.ciphertext (base64url). */
export async function secretCipher(db: Db) {
  const key = Buffer.from(await storedSecret(db, 'payment_key', () => crypto.randomBytes(32).toString('hex')), 'hex');
  return {
    seal(plain: string): string {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed: string): string {
      const [v, iv, tag, body] = sealed.split('.');
      if (v !== 'v1') throw new Error('unknown sealed format');
      const d = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
    },
  };
}
export type SecretCipher = Awaited<ReturnType<typeof secretCipher>>;

// ---------------------------------------------------------------- sandbox

export const SANDBOX_HEADERS = { timestamp: 'x-sandbox-timestamp', signature: 'x-sandbox-signature' } as const;
const MAX_SKEW_MS = 5 * 60_000;

export function sandboxQr(orderNo: string, amountFen: number): string {
  return `kelvin-sandbox://pay?orderNo=${encodeURIComponent(orderNo)}&amountFen=${amountFen}`;
}

/** The sandbox's notification: JSON body, HMAC-SHA256(key, timestamp + "\n" + body) in hex. */
export function sandboxNotification(key: string, notice: PaidNotice, now = Date.now()) {
  const body = JSON.stringify({ orderNo: notice.orderNo, txnId: notice.txnId, amountFen: notice.amountFen, paidAt: notice.paidAt, status: 'SUCCESS' });
  const timestamp = String(now);
  const signature = crypto.createHmac('sha256', key).update(`${timestamp}\n${body}`).digest('hex');
  return { body, headers: { [SANDBOX_HEADERS.timestamp]: timestamp, [SANDBOX_HEADERS.signature]: signature, 'content-type': 'application/json' } };
}

export function verifySandbox(key: string, headers: Record<string, unknown>, body: string, now = Date.now()): PaidNotice {
  const timestamp = String(headers[SANDBOX_HEADERS.timestamp] ?? '');
  const signature = String(headers[SANDBOX_HEADERS.signature] ?? '');
  if (!/^\d{10,16}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > MAX_SKEW_MS) throw new SignatureError('通知时间戳无效或已过期');
  const expected = crypto.createHmac('sha256', key).update(`${timestamp}\n${body}`).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new SignatureError('通知签名校验失败');
  const json = JSON.parse(body) as { orderNo?: unknown; txnId?: unknown; amountFen?: unknown; paidAt?: unknown; status?: unknown };
  if (json.status !== 'SUCCESS' || typeof json.orderNo !== 'string' || typeof json.txnId !== 'string' || !Number.isSafeInteger(json.amountFen)) {
    throw new SignatureError('通知内容不完整');
  }
  return { orderNo: json.orderNo, txnId: json.txnId, amountFen: json.amountFen as number, paidAt: Number(json.paidAt) || now };
}

// ---------------------------------------------------------------- WeChat Pay API v3

export const WECHAT_HEADERS = { timestamp: 'wechatpay-timestamp', nonce: 'wechatpay-nonce', signature: 'wechatpay-signature', serial: 'wechatpay-serial' } as const;

/** The v3 notification signature: SHA256-RSA over "timestamp\nnonce\nbody\n" with the platform public key (base64). */
export function verifyWechatSignature(publicKeyPem: string, headers: Record<string, unknown>, body: string, now = Date.now()) {
  const timestamp = String(headers[WECHAT_HEADERS.timestamp] ?? '');
  const nonce = String(headers[WECHAT_HEADERS.nonce] ?? '');
  const signature = String(headers[WECHAT_HEADERS.signature] ?? '');
  if (!/^\d{9,11}$/.test(timestamp) || Math.abs(now - Number(timestamp) * 1000) > MAX_SKEW_MS) throw new SignatureError('微信支付通知时间戳无效或已过期');
  if (!nonce || !signature) throw new SignatureError('微信支付通知缺少签名');
  const ok = crypto.verify('RSA-SHA256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8'), publicKeyPem, Buffer.from(signature, 'base64'));
  if (!ok) throw new SignatureError('微信支付通知签名校验失败');
}

/** AEAD_AES_256_GCM of the notification's resource with the APIv3 key (ciphertext ends with the 16-byte tag). */
export function decryptWechatResource(apiV3Key: string, r: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length < 17) throw new SignatureError('微信支付通知密文无效');
  const d = crypto.createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(r.nonce, 'utf8'));
  d.setAuthTag(data.subarray(data.length - 16));
  d.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  try {
    return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8');
  } catch {
    throw new SignatureError('微信支付通知解密失败');
  }
}

/** For tests and tools: what WeChat Pay would send (encrypts the resource, signs with the platform private key). */
export function wechatNotification(platformPrivateKeyPem: string, apiV3Key: string, transaction: Record<string, unknown>, now = Date.now()) {
  const nonce = crypto.randomBytes(6).toString('hex');
  const iv = crypto.randomBytes(6).toString('hex');
  const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(iv, 'utf8'));
  c.setAAD(Buffer.from('transaction', 'utf8'));
  const ciphertext = Buffer.concat([c.update(JSON.stringify(transaction), 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
  const body = JSON.stringify({
    id: crypto.randomUUID(), create_time: new Date(now).toISOString(), resource_type: 'encrypt-resource', event_type: 'TRANSACTION.SUCCESS',
    resource: { algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: 'transaction', nonce: iv, original_type: 'transaction' },
  });
  const timestamp = String(Math.floor(now / 1000));
  const signature = crypto.sign('RSA-SHA256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8'), platformPrivateKeyPem).toString('base64');
  return {
    body,
    headers: { [WECHAT_HEADERS.timestamp]: timestamp, [WECHAT_HEADERS.nonce]: nonce, [WECHAT_HEADERS.signature]: signature, [WECHAT_HEADERS.serial]: 'TEST', 'content-type': 'application/json' },
  };
}

export function verifyWechat(cfg: ProviderConfig, headers: Record<string, unknown>, body: string, now = Date.now()): PaidNotice {
  if (!cfg.platformPublicKey) throw new SignatureError('未配置微信支付平台公钥，无法校验通知');
  verifyWechatSignature(cfg.platformPublicKey, headers, body, now);
  const json = JSON.parse(body) as { event_type?: string; resource?: { ciphertext: string; nonce: string; associated_data?: string } };
  if (!json.resource) throw new SignatureError('微信支付通知缺少 resource');
  const tx = JSON.parse(decryptWechatResource(cfg.apiKey, json.resource)) as {
    out_trade_no?: string; transaction_id?: string; trade_state?: string; mchid?: string; amount?: { total?: number }; success_time?: string;
  };
  if (tx.trade_state !== 'SUCCESS' || json.event_type !== 'TRANSACTION.SUCCESS') throw new SignatureError('交易未成功');
  if (tx.mchid && tx.mchid !== cfg.mchId) throw new SignatureError('商户号不符');
  if (!tx.out_trade_no || !tx.transaction_id || !Number.isSafeInteger(tx.amount?.total)) throw new SignatureError('微信支付通知内容不完整');
  return { orderNo: tx.out_trade_no, txnId: tx.transaction_id, amountFen: tx.amount!.total!, paidAt: tx.success_time ? Date.parse(tx.success_time) || now : now };
}

/**
 * Creates a Native (QR) order at WeChat Pay: POST /v3/pay/transactions/native, signed with the merchant key
 * (Authorization: WECHATPAY2-SHA256-RSA2048). Needs the network and a real merchant; not exercised by the tests.
 */
export async function wechatNativeOrder(cfg: ProviderConfig, order: { orderNo: string; amountFen: number; description: string }): Promise<string> {
  if (!cfg.privateKey || !cfg.certSerialNo || !cfg.notifyUrl) throw new Error('微信支付配置不完整（商户私钥、证书序列号、回调地址）');
  const path = '/v3/pay/transactions/native';
  const body = JSON.stringify({
    appid: cfg.appId, mchid: cfg.mchId, description: order.description, out_trade_no: order.orderNo, notify_url: cfg.notifyUrl,
    amount: { total: order.amountFen, currency: 'CNY' },
  });
  const ts = Math.floor(Date.now() / 1000);
  const nonce = crypto.randomBytes(16).toString('hex');
  const signature = crypto.sign('RSA-SHA256', Buffer.from(`POST\n${path}\n${ts}\n${nonce}\n${body}\n`), cfg.privateKey).toString('base64');
  const res = await fetch(`https://api.mch.weixin.qq.com${path}`, {
    method: 'POST', body, signal: AbortSignal.timeout(10_000),
    headers: {
      'content-type': 'application/json', accept: 'application/json',
      authorization: `WECHATPAY2-SHA256-RSA2048 mchid="${cfg.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${ts}",serial_no="${cfg.certSerialNo}"`,
    },
  });
  const json = (await res.json()) as { code_url?: string; message?: string };
  if (!res.ok || !json.code_url) throw new Error(`微信支付下单失败：${json.message ?? res.status}`);
  return json.code_url;
}

// ---------------------------------------------------------------- the provider interface

/** What the service needs of a payment provider: an order's QR payload, and a verified callback. */
export interface PaymentProvider {
  createOrder(cfg: ProviderConfig, order: { orderNo: string; amountFen: number; description: string }): Promise<string>;
  /** throws SignatureError for anything not provably from the provider */
  verify(cfg: ProviderConfig, headers: Record<string, unknown>, body: string): PaidNotice;
}

export const PROVIDERS: Record<ProviderConfig['provider'], PaymentProvider> = {
  sandbox: {
    createOrder: async (_cfg, order) => sandboxQr(order.orderNo, order.amountFen),
    verify: (cfg, headers, body) => verifySandbox(cfg.apiKey, headers, body),
  },
  wechat: {
    createOrder: wechatNativeOrder,
    verify: (cfg, headers, body) => verifyWechat(cfg, headers, body),
  },
};

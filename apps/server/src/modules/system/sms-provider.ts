import crypto from 'node:crypto';
import type { SmsConfig } from '../../config.ts';

export interface SmsMessage {
  phone: string;
  signName: string;
  content: string;
  /** The template's code at the provider (Aliyun: SMS_…); null when the tenant has not configured one. */
  templateCode: string | null;
  params: Record<string, string>;
}

export interface SmsResult {
  status: 'sent' | 'failed' | 'recorded';
  providerMsgId?: string;
  error?: string;
}

/** Where SMS go. Every message is kept in sms_record whatever the provider; the provider decides what else happens. */
export interface SmsProvider {
  readonly name: string;
  send(msg: SmsMessage): Promise<SmsResult>;
}

/** The embedded default: the record list is the outbox, nothing leaves the server (works offline, in demos and tests). */
export const recordProvider: SmsProvider = {
  name: 'record',
  send: async () => ({ status: 'recorded' }),
};

/** RFC 3986 encoding as Aliyun's signature (v1) requires it. */
const percent = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Aliyun RPC signature, version 1.0 (HMAC-SHA1 over the sorted, encoded query). */
export function aliyunSignature(params: Record<string, string>, secret: string, method = 'GET'): string {
  const query = Object.keys(params).sort().map((k) => `${percent(k)}=${percent(params[k])}`).join('&');
  const toSign = `${method}&${percent('/')}&${percent(query)}`;
  return crypto.createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

export interface AliyunOptions {
  accessKeyId: string;
  accessKeySecret: string;
  endpoint: string;
  regionId: string;
}

/** Aliyun SMS (dysmsapi SendSms). `fetchFn` is injectable so tests never touch the network. */
export function aliyunProvider(opts: AliyunOptions, fetchFn: typeof fetch = fetch, now: () => Date = () => new Date()): SmsProvider {
  return {
    name: 'aliyun',
    async send(msg) {
      if (!msg.templateCode) return { status: 'failed', error: '该模板未填写服务商模板编号，无法通过阿里云发送' };
      if (!msg.signName) return { status: 'failed', error: '未设置短信签名' };
      const params: Record<string, string> = {
        AccessKeyId: opts.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: msg.phone,
        RegionId: opts.regionId,
        SignName: msg.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: crypto.randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: msg.templateCode,
        TemplateParam: JSON.stringify(msg.params),
        Timestamp: now().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      const query = Object.entries({ ...params, Signature: aliyunSignature(params, opts.accessKeySecret) })
        .map(([k, v]) => `${percent(k)}=${percent(v)}`).join('&');
      try {
        const res = await fetchFn(`${opts.endpoint.replace(/\/$/, '')}/?${query}`, { signal: AbortSignal.timeout(10_000) });
        const body = (await res.json().catch(() => ({}))) as { Code?: string; Message?: string; BizId?: string };
        if (res.ok && body.Code === 'OK') return { status: 'sent', providerMsgId: body.BizId };
        return { status: 'failed', error: `阿里云返回 ${body.Code ?? res.status}：${body.Message ?? '未知错误'}`.slice(0, 300) };
      } catch (err) {
        return { status: 'failed', error: `无法连接阿里云短信服务：${(err as Error).message}`.slice(0, 300) };
      }
    },
  };
}

/** The provider named by configuration (SMS_PROVIDER); a real provider without credentials stops the start. */
export function smsProviderFromConfig(config: SmsConfig | undefined): SmsProvider {
  if (!config || config.provider === 'record') return recordProvider;
  if (!config.aliyun) throw new Error('SMS_PROVIDER=aliyun 需要同时设置 SMS_ALIYUN_ACCESS_KEY_ID 和 SMS_ALIYUN_ACCESS_KEY_SECRET');
  return aliyunProvider(config.aliyun);
}

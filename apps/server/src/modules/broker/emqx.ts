import crypto from 'node:crypto';
import { deviceRules, ingestFilters } from '../../plugins/mqtt.ts';
import type { DeviceCore } from '../devices/index.ts';

/**
 * EMQX 5's HTTP authenticator and authorizer, answered by Kelvin: the same refusals as the embedded broker (anonymous,
 * wildcard ids, borrowed names, wrong secrets, foreign topics), counted the same way. The server's own account
 * (MQTT_USERNAME / MQTT_PASSWORD) may subscribe to the ingest filters and publish commands, nothing else.
 */
export type EmqxResult = 'allow' | 'deny';

export interface EmqxAuthRequest {
  clientid?: string;
  username?: string;
  password?: string;
}
export interface EmqxAclRequest {
  clientid?: string;
  username?: string;
  topic?: string;
  /** publish | subscribe (EMQX 5 ${action}) */
  action?: string;
}

const same = (a: string, b: string) => {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
};

/** A topic a command is published to: kelvin/{tenant}/{device}/down. */
const DOWN = /^kelvin\/[^/+#]+\/[^/+#]+\/down$/;

export function createEmqxAuth(deps: { core: DeviceCore; server?: { username: string; password: string }; shareGroup?: string }) {
  const { handlers } = deps.core.ingest;
  const isServer = (username: string | undefined) => !!deps.server && username === deps.server.username;
  // EMQX may hand a shared subscription over with or without its $share/{group}/ prefix
  const serverFilters = new Set([...ingestFilters(deps.shareGroup), ...ingestFilters(undefined)]);

  return {
    async authenticate(req: EmqxAuthRequest): Promise<EmqxResult> {
      const clientId = req.clientid ?? '';
      if (isServer(req.username)) return same(req.password ?? '', deps.server!.password) ? 'allow' : 'deny';
      const refusal = deviceRules.connect(clientId, req.username, req.password);
      if (refusal) {
        handlers.refused(refusal.reason, clientId || null, '', refusal.detail);
        return 'deny';
      }
      const session = await handlers.authenticate(clientId, req.username!, Buffer.from(req.password!));
      if (session) return 'allow';
      handlers.refused('auth', clientId, '', '设备编号或密钥错误，或设备已停用');
      return 'deny';
    },

    async authorize(req: EmqxAclRequest): Promise<EmqxResult> {
      const topic = req.topic ?? '';
      const publish = req.action === 'publish';
      if (isServer(req.username)) return (publish ? DOWN.test(topic) : serverFilters.has(topic)) ? 'allow' : 'deny';
      const clientId = req.clientid ?? '';
      // the client authenticated through the endpoint above; its device must still exist and be enabled
      const ctx = clientId && req.username === clientId ? await deps.core.directory.byCode(clientId) : null;
      const allowed = !!ctx && ctx.enabled && (publish ? deviceRules.publishTopics(ctx.prefix) : deviceRules.subscribeFilters(ctx.prefix)).includes(topic);
      if (allowed) return 'allow';
      if (publish) handlers.refused('acl_publish', clientId || null, topic, '只能发布到本设备的 up / ack 主题');
      else handlers.refused('acl_subscribe', clientId || null, topic, '只能订阅本设备的 down 主题');
      return 'deny';
    },
  };
}

export type EmqxAuth = ReturnType<typeof createEmqxAuth>;

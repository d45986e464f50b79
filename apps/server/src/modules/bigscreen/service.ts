import crypto from 'node:crypto';
import {
  ResultCode,
  type DataviewCreate, type DataviewCreated, type DataviewLinkDto, type DataviewStatus, type DataviewSummary, type BigScreenSummary,
} from '@kelvin/contracts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import { rateLimiter } from '../../lib/rate-limit.ts';
import type { Actor } from '../../lib/scope.ts';
import type { ProjectService } from '../projects/index.ts';
import { summarize, type SummaryDeps } from './summary.ts';

const DAY = 86_400_000;
const actorName = (a: Actor) => a.user.name || a.user.username;
const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

type ShareRow = { id: number; project_id: number; token_hint: string; note: string | null; created_by_name: string; created_at: number; expires_at: number; revoked_at: number | null };

const statusOf = (r: Pick<ShareRow, 'expires_at' | 'revoked_at'>, now: number): DataviewStatus => (r.revoked_at !== null ? 'revoked' : r.expires_at <= now ? 'expired' : 'active');
const toDto = (r: ShareRow, now: number): DataviewLinkDto => ({
  id: r.id, projectId: r.project_id, hint: r.token_hint, note: r.note, createdBy: r.created_by_name, createdAt: r.created_at,
  expiresAt: r.expires_at, revokedAt: r.revoked_at, status: statusOf(r, now),
});

/** Requests per minute a public link answers: per token (every screen showing it) and per address. */
export const DATAVIEW_LIMITS = { perToken: 60, perAddress: 120 };

/**
 * The big screens: the comprehensive screen over the caller's projects, the project screen, and public share links of
 * a project screen (random token, only its SHA-256 stored; expiry; revocation; rate-limited public reads).
 */
export function createBigScreenService(deps: SummaryDeps & { projects: ProjectService }) {
  const { db, projects } = deps;
  const tooMany = '访问过于频繁，请稍后再试';
  const byToken = rateLimiter({ limit: DATAVIEW_LIMITS.perToken, windowMs: 60_000, message: tooMany });
  const byAddress = rateLimiter({ limit: DATAVIEW_LIMITS.perAddress, windowMs: 60_000, message: tooMany });

  return {
    /** 综合大屏: every project the caller sees. */
    async overview(actor: Actor, energy: boolean): Promise<BigScreenSummary> {
      const rows = await projects.visibleProjects(actor.scope);
      return summarize(deps, rows, '综合监控中心', { energy });
    },

    /** 项目大屏: one project of the caller's (another tenant's or an ungranted one: 404). */
    async project(actor: Actor, projectId: number, energy: boolean): Promise<BigScreenSummary> {
      const p = await projects.project(actor.scope, projectId);
      return summarize(deps, [p], p.alias || p.name, { energy });
    },

    async links(actor: Actor, projectId: number): Promise<DataviewLinkDto[]> {
      const p = await projects.project(actor.scope, projectId);
      const rows = await db.selectFrom('dataview_share').selectAll().where('project_id', '=', p.id).where('tenant_id', '=', p.tenant_id)
        .orderBy('id', 'desc').limit(200).execute();
      const now = Date.now();
      return rows.map((r) => toDto(r, now));
    },

    async create(actor: Actor, input: DataviewCreate): Promise<DataviewCreated> {
      const p = await projects.project(actor.scope, input.projectId);
      const now = Date.now();
      const expiresAt = input.days !== undefined ? now + input.days * DAY : input.expiresAt!;
      if (expiresAt <= now + 60_000) throw invalid('到期时间必须晚于现在', ['expiresAt']);
      if (expiresAt > now + 366 * DAY) throw invalid('有效期最多 366 天', ['expiresAt']);
      const token = crypto.randomBytes(32).toString('base64url');
      const row = await db.insertInto('dataview_share').values({
        tenant_id: p.tenant_id, project_id: p.id, token_hash: sha256(token), token_hint: token.slice(0, 6), note: input.note || null,
        created_by: actor.user.id, created_by_name: actorName(actor), created_at: now, expires_at: expiresAt, revoked_at: null, revoked_by_name: null,
      }).returningAll().executeTakeFirstOrThrow();
      return { ...toDto(row, now), token, path: `/dataviews?token=${token}` };
    },

    async revoke(actor: Actor, id: number): Promise<DataviewLinkDto> {
      const row = await db.selectFrom('dataview_share').selectAll().where('id', '=', id).executeTakeFirst();
      // a link of a project outside the caller's scope does not exist for them
      const p = row && (await projects.project(actor.scope, row.project_id).catch(() => null));
      if (!row || !p || p.tenant_id !== row.tenant_id) throw notFound('分享链接');
      const now = Date.now();
      if (row.revoked_at === null) {
        await db.updateTable('dataview_share').set({ revoked_at: now, revoked_by_name: actorName(actor) }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      }
      const after = await db.selectFrom('dataview_share').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return toDto(after, now);
    },

    /**
     * A public link's screen: the token must name an unexpired, unrevoked link; the answer is that one project's
     * aggregate summary (device, building and rule names; no people). Limited per token and per address.
     */
    async publicSummary(token: string, address: string): Promise<DataviewSummary> {
      byAddress.hit(address);
      byToken.hit(sha256(token));
      const row = await db.selectFrom('dataview_share').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
      const now = Date.now();
      if (!row) throw new AppError(ResultCode.FORBIDDEN, '链接已失效：链接不存在或已被删除');
      const status = statusOf(row, now);
      if (status === 'revoked') throw new AppError(ResultCode.FORBIDDEN, '链接已失效：分享已被撤销');
      if (status === 'expired') throw new AppError(ResultCode.FORBIDDEN, '链接已失效：分享已过期');
      const p = await db.selectFrom('area').select(['id', 'tenant_id', 'name', 'alias', 'lng', 'lat'])
        .where('id', '=', row.project_id).where('tenant_id', '=', row.tenant_id).where('level', '=', 'project').executeTakeFirst();
      if (!p) throw new AppError(ResultCode.FORBIDDEN, '链接已失效：项目已不存在');
      const summary = await summarize(deps, [p], p.alias || p.name, { energy: true, now });
      return { ...summary, expiresAt: row.expires_at };
    },
  };
}

export type BigScreenService = ReturnType<typeof createBigScreenService>;

import type { KelvinConfig } from './config.ts';
import type { Db } from './db/index.ts';
import type { Actor } from './lib/scope.ts';
import type { ActiveTrace } from './lib/trace.ts';

/**
 * 'public' (no token), 'login' (any signed-in user), a menu/element code the user must hold, or several codes of which
 * the user must hold one (the same call serves two screens, e.g. 编程设置 and 温控器编程).
 */
export type Access = 'public' | 'login' | (string & {}) | readonly [string, ...string[]];

export interface AuthUser {
  id: number;
  tenantId: number;
  username: string;
  name: string;
  isPlatform: boolean;
  allProjects: boolean;
  sessionId: string;
  codes: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Chinese name of the operation for the gate log (the hook adds the object it acted on). Every changing route
     * declares one; `false` marks a POST that only reads (a query with a body), which is not an operation.
     */
    operation?: string | false;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The caller and their scope, computed once by the access hook for every signed-in route (null on public ones). */
    actor: Actor | null;
    /** The request's trace (every /api request; plugins/trace.ts). */
    trace: ActiveTrace | null;
    /** why the request failed, for its trace (the error handler's input, never shown to the caller) */
    traceError: string | null;
  }
  interface FastifyInstance {
    db: Db;
    config: KelvinConfig;
  }
}

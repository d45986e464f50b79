/** Types of build-server.mjs (plain JavaScript: `./kelvin` runs it before anything is compiled). */
export const ROOT: string;
export const SERVER_DIST: string;
export const SERVER_ARGS: string[];
export function serverStale(): boolean;
export function buildServer(): Promise<void>;
export function ensureServerBuilt(opts?: { force?: boolean; quiet?: boolean }): Promise<boolean>;

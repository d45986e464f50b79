// The compiled server: apps/server/src → apps/server/dist, once per change of the sources (like the web app's build).
// `node scripts/build-server.mjs` builds when stale (--force: always); `./kelvin start|serve`, the browser tests, the
// benches and the process tests call it before they start `node apps/server/dist/server.mjs`.
//
// Entry points, each one ESM file in dist/ with its source map:
//   server.mjs, migrate.mjs, backup.mjs (the CLIs), and every `*.worker.mjs` / `*.worker.ts` under src/ as
//   `<name>.worker.mjs` beside them — a worker is started with `new URL('./<name>.worker.mjs', import.meta.url)`, and
//   in dist/ import.meta.url is that of the bundle, so the worker must land in the same folder under that name.
// npm packages stay external (node_modules is there at run time); the workspace's own packages (@kelvin/*, whose
// package.json points at TypeScript) are bundled in.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'apps/server/src');
export const SERVER_DIST = path.join(ROOT, 'apps/server/dist');
/** written last: its time is the build's, its absence a build that did not finish */
const STAMP = path.join(SERVER_DIST, '.built');
/** node arguments that run the compiled server (source maps: stack traces name the TypeScript lines) */
export const SERVER_ARGS = ['--enable-source-maps', path.join(SERVER_DIST, 'server.mjs')];

const INPUTS = [SRC, path.join(ROOT, 'packages/contracts/src'), path.join(ROOT, 'apps/server/package.json'), path.join(ROOT, 'package-lock.json'), fileURLToPath(import.meta.url)];
const isTest = (f) => /\.test\.ts$/.test(f) || f.includes(`${path.sep}src${path.sep}test${path.sep}`);

function newestInput(p, newest = 0) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return newest;
  if (!st.isDirectory()) return isTest(p) ? newest : Math.max(newest, st.mtimeMs);
  for (const e of fs.readdirSync(p)) newest = newestInput(path.join(p, e), newest);
  return newest;
}

export function serverStale() {
  const built = fs.statSync(STAMP, { throwIfNoEntry: false });
  return !built || INPUTS.reduce((n, p) => newestInput(p, n), 0) > built.mtimeMs;
}

function workerEntries(dir = SRC, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) workerEntries(p, out);
    else if (/\.worker\.(mjs|ts)$/.test(e.name)) out.push({ in: p, out: e.name.replace(/\.(mjs|ts)$/, '') });
  }
  return out;
}

/** Builds into a folder of its own and swaps it in, so a server starting meanwhile never sees half a build. */
export async function buildServer() {
  const { build } = await import('esbuild');
  const tmp = `${SERVER_DIST}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const entryPoints = [
    { in: path.join(SRC, 'server.ts'), out: 'server' },
    { in: path.join(SRC, 'cli/migrate.ts'), out: 'migrate' },
    { in: path.join(SRC, 'cli/backup.ts'), out: 'backup' },
    ...workerEntries(),
  ];
  await build({
    entryPoints, outdir: tmp, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    sourcemap: true, logLevel: 'warning', legalComments: 'none',
    plugins: [{
      name: 'npm-packages-external',
      setup(b) {
        // like --packages=external, but the workspace's own TypeScript packages are compiled in
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@kelvin/') || path.isAbsolute(args.path) ? undefined : { path: args.path, external: true }));
      },
    }],
  });
  fs.writeFileSync(path.join(tmp, '.built'), new Date().toISOString());
  const old = `${SERVER_DIST}.old-${process.pid}`;
  if (fs.existsSync(SERVER_DIST)) fs.renameSync(SERVER_DIST, old);
  fs.renameSync(tmp, SERVER_DIST);
  fs.rmSync(old, { recursive: true, force: true });
}

const LOCK = `${SERVER_DIST}.lock`;

/** One build at a time (test files and benches start servers in parallel); a lock older than a minute is stale. */
async function withBuildLock(fn) {
  for (;;) {
    try {
      fs.closeSync(fs.openSync(LOCK, 'wx'));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const st = fs.statSync(LOCK, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > 60_000) fs.rmSync(LOCK, { force: true });
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}

/** Builds the server when a source is newer than the last build; true when it built. */
export async function ensureServerBuilt({ force = false, quiet = false } = {}) {
  if (!force && !serverStale()) return false;
  return withBuildLock(async () => {
    // another process may have built it while this one waited
    if (!force && !serverStale()) return false;
    if (!quiet) console.log('▶ 构建服务端…');
    await buildServer();
    return true;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureServerBuilt({ force: process.argv.includes('--force') });
}

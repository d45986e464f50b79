// Bundle budget: the JS the login page and the shell load ≤ 250 KiB gzipped; every route chunk ≤ 150 KiB.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve('apps/web/dist');
const SHELL_BUDGET = 250 * 1024;
const CHUNK_BUDGET = 150 * 1024;
const manifestPath = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error('找不到 apps/web/dist/.vite/manifest.json：请先构建前端 (vite build，build.manifest = true)');
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

// The shell = the entry and everything it imports statically.
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const shell = new Set();
const walk = (key) => {
  const item = manifest[key];
  if (!item || shell.has(item.file)) return;
  shell.add(item.file);
  for (const imp of item.imports ?? []) walk(imp);
};
walk(entryKey);

let failed = false;
const shellSize = [...shell].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0);
console.log('文件'.padEnd(60), 'gzip');
for (const f of [...shell].filter((x) => x.endsWith('.js'))) console.log(`  [外壳] ${f}`.padEnd(60), kib(gz(f)));
console.log(`外壳合计 (登录页与布局): ${kib(shellSize)} / 预算 ${kib(SHELL_BUDGET)}`);
if (shellSize > SHELL_BUDGET) failed = true;

const chunks = new Set(Object.values(manifest).map((m) => m.file).filter((f) => f.endsWith('.js') && !shell.has(f)));
for (const f of [...chunks].sort()) {
  const size = gz(f);
  const over = size > CHUNK_BUDGET;
  if (over) failed = true;
  console.log(`  [路由] ${f}`.padEnd(60), kib(size), over ? '  ✗ 超出 150 KiB' : '');
}
if (failed) {
  console.error('✗ 超出包体积预算');
  process.exit(1);
}
console.log('✓ 包体积在预算内');

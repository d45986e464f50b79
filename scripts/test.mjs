// `./kelvin test`: every check in one run; the last line is the plain `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const only = process.argv[2];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-results-'));
const results = [];
// names of failed tests, printed again in the summary: CI shows only the tail of a long run
const failures = [];
const firstLine = (m) => String(m ?? '').split('\n').find((l) => l.trim())?.trim().slice(0, 200) ?? '';
/** a run that failed with no test of its own named (a setup, an unhandled error) is named by its exit code */
function nameUnnamed(title, code) {
  if (code !== 0 && !failures.some((f) => f.startsWith(`[${title}]`))) failures.push(`[${title}] 退出码 ${code}，错误不属于某个测试（如未处理的异常），见上方输出`);
}

function run(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { code: r.status ?? 1, seconds };
}

function check(title, cmd, args) {
  const r = run(title, cmd, args);
  results.push({ title, passed: r.code === 0 ? 1 : 0, failed: r.code === 0 ? 0 : 1, seconds: r.seconds });
}

function vitest(title, args, env = {}) {
  const out = path.join(tmp, `${title.replace(/\W+/g, '_')}.json`);
  const r = run(title, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
  let passed = 0;
  let failed = r.code === 0 ? 0 : 1;
  if (fs.existsSync(out)) {
    const j = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed = j.numPassedTests;
    // a failed test, or a file that failed outside its tests (a hook, an import, an unhandled error) counts once
    let failedFiles = 0;
    for (const file of j.testResults ?? []) {
      const where = path.relative(process.cwd(), file.name ?? '');
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) {
        failedFiles++;
        failures.push(`[${title}] ${where}: ${firstLine(file.message)}`);
      }
      for (const a of file.assertionResults ?? []) {
        if (a.status === 'failed') failures.push(`[${title}] ${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
      }
    }
    failed = j.numFailedTests + failedFiles || (r.code === 0 ? 0 : 1);
  }
  nameUnnamed(title, r.code);
  results.push({ title, passed, failed, seconds: r.seconds });
}

function playwright(title) {
  const out = path.join(tmp, 'e2e.json');
  const r = run(title, 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  let passed = 0;
  let failed = r.code === 0 ? 0 : 1;
  if (fs.existsSync(out)) {
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const s = report.stats ?? {};
    passed = (s.expected ?? 0) + (s.flaky ?? 0);
    failed = (s.unexpected ?? 0) || (r.code === 0 ? 0 : 1);
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status === 'unexpected') failures.push(`[${title}] ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(t.results?.at(-1)?.error?.message)}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
  }
  nameUnnamed(title, r.code);
  results.push({ title, passed, failed, seconds: r.seconds });
}

const want = (name) => !only || only === name;

if (want('lint')) check('代码检查 (ESLint)', 'npx', ['eslint', '.', '--max-warnings=0']);
if (want('lint')) {
  for (const p of ['packages/contracts', 'apps/server', 'apps/web']) check(`类型检查 ${p}`, 'npx', ['tsc', '-p', p]);
}
if (want('unit')) vitest('单元测试 (contracts + web)', ['--project', 'contracts', '--project', 'web']);
if (want('api') || want('unit')) vitest('接口测试 (SQLite)', ['--project', 'server'], { DATABASE_URL: '' });
const pg = process.env.KELVIN_TEST_DATABASE_URL;
if ((want('api') || !only) && pg) vitest('接口测试 (PostgreSQL)', ['--project', 'server'], { DATABASE_URL: pg });
if (want('budget')) check('前端包体积预算', 'node', ['scripts/bundle-budget.mjs']);
// the OpenAPI fuzz with many more runs per operation than the API suite's (KELVIN_FUZZ_RUNS, KELVIN_FUZZ_SEED to change)
if (only === 'fuzz') vitest('接口模糊测试 (OpenAPI)', ['--project', 'server', 'apps/server/src/test/openapi-fuzz.test.ts'], { DATABASE_URL: '', KELVIN_FUZZ_RUNS: process.env.KELVIN_FUZZ_RUNS ?? '100' });
if (only === 'faults') check('故障注入 (kill -9、数据库忙、端口占用)', 'node', ['scripts/faults.mjs']);
if (want('e2e')) playwright('浏览器测试 (Chromium)');

console.log('\n──────── 汇总 ────────');
if (failures.length) {
  console.log('失败的测试：');
  // eslint-disable-next-line no-control-regex -- the terminal colours in vitest's messages
  for (const f of failures) console.log(`  ✗ ${f.replace(/\x1b\[[0-9;]*m/g, '')}`);
}
for (const r of results) console.log(`${r.failed ? '✗' : '✓'} ${r.title.padEnd(28)} ${String(r.passed).padStart(4)} 通过 ${String(r.failed).padStart(3)} 失败  ${r.seconds}s`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

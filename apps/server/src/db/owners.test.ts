import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_WRITERS, TABLE_OWNERS } from './owners.ts';

const SRC = path.resolve(import.meta.dirname, '..');
const TABLES = new Set(Object.keys(TABLE_OWNERS));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !/fixtures\.ts$/.test(e.name) ? [p] : [];
  });
}

/** The module a file belongs to: `modules/<name>` → name; otherwise its path under src/. */
function ownerOf(rel: string): string {
  const m = rel.match(/^modules\/([^/]+)\//);
  return m ? m[1] : rel.replace(/\.(ts|mjs)$/, '');
}

/** Tables a source text writes: Kysely builders and raw SQL (comments removed first). */
export function writtenTables(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = new Set<string>();
  for (const m of code.matchAll(/\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"]([a-z_]+)/g)) found.add(m[1]);
  for (const m of code.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)\b/gi)) if (TABLES.has(m[1].toLowerCase())) found.add(m[1].toLowerCase());
  return [...found];
}

function violations(files: { rel: string; text: string }[]) {
  const out: string[] = [];
  for (const { rel, text } of files) {
    if (SEED_WRITERS.some((w) => rel.startsWith(w))) continue;
    for (const table of writtenTables(text)) {
      const owner = TABLE_OWNERS[table as keyof typeof TABLE_OWNERS] as string | undefined;
      if (!owner) out.push(`${rel}: 表 ${table} 没有登记所属模块（db/owners.ts）`);
      else if (owner === 'db' ? !rel.startsWith('db/') : ownerOf(rel) !== owner) out.push(`${rel}: 写入了 ${owner} 模块的表 ${table}`);
    }
  }
  return out;
}

describe('each table is written only by the module that owns it', () => {
  it('every table of the schema has an owner', () => {
    const schema = fs.readFileSync(path.join(SRC, 'db/schema.ts'), 'utf8');
    const block = schema.slice(schema.indexOf('export interface Database'));
    const declared = [...block.slice(0, block.indexOf('\n}')).matchAll(/^\s+([a-z_]+):/gm)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(30);
    expect(declared.filter((t) => !TABLES.has(t))).toEqual([]);
  });

  it('no source file writes a table of another module', () => {
    const files = sourceFiles(SRC).map((p) => ({ rel: path.relative(SRC, p).split(path.sep).join('/'), text: fs.readFileSync(p, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  it('the check sees Kysely and raw SQL writes, and not comments', () => {
    expect(writtenTables(`await db.updateTable('device').set({})`)).toEqual(['device']);
    expect(writtenTables('db.prepare(`INSERT INTO device_state (a) VALUES (?) ON CONFLICT DO UPDATE SET a = 1`)')).toEqual(['device_state']);
    expect(writtenTables(`// we never deleteFrom('device') here\n/* update device */ const x = 1;`)).toEqual([]);
    expect(violations([{ rel: 'modules/billing/service.ts', text: `await trx.insertInto('device_command').values(v)` }]))
      .toEqual(['modules/billing/service.ts: 写入了 devices 模块的表 device_command']);
    expect(violations([{ rel: 'modules/devices/commands.ts', text: `await trx.insertInto('device_command').values(v)` }])).toEqual([]);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every source file of the web features, relative to features/. */
function sources(dir = import.meta.dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [relative(import.meta.dirname, path)] : [];
  });
}
const text = (file: string) => readFileSync(join(import.meta.dirname, file), 'utf8');

describe('the web data layer', () => {
  it('only a feature\'s api.ts talks HTTP; pages and components go through it', () => {
    // api.ts, or its parts api-<part>.ts when two people build one feature (billing: api-config.ts, api-engine.ts)
    const offenders = sources().filter((f) => !/(^|\/)api(-[\w-]+)?\.ts$/.test(f) && /from '[./]+lib\/http'/.test(text(f)));
    expect(offenders).toEqual([]);
  });

  it('query keys come from the feature\'s key factory, never inline arrays', () => {
    const inline = /queryKey(?::|=\{)\s*\[\s*'|setQueryData(?:<[^>]*>)?\(\s*\[\s*'/;
    const offenders = sources().filter((f) => inline.test(text(f)));
    expect(offenders).toEqual([]);
  });

  it('each feature with an api has its key factory', () => {
    for (const api of sources().filter((f) => f.endsWith('/api.ts'))) expect(text(api), api).toMatch(/export const \w+Keys = \{/);
  });
});

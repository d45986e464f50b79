import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAPI } from 'antd/es/modal/useModal';
import { DIALOG_DEFAULTS, withDialogDefaults } from './ui';

/**
 * Spec §5: no dialog or drawer of the console closes on backdrop click or Escape by default. The defaults live in one
 * place; this walks every source file so a screen cannot open an antd Modal, Drawer or imperative box around them.
 */
const SRC = path.resolve(import.meta.dirname, '..');
const OWNERS = new Set(['lib/ui.tsx', 'components/app-drawer.tsx']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('dialog defaults (spec §5)', () => {
  it('every modal and drawer goes through the console defaults', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (OWNERS.has(rel)) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
        const names = m[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]);
        if (names.some((n) => n === 'Modal' || n === 'Drawer')) offenders.push(`${rel}: imports antd Modal/Drawer (use AppModal / AppDrawer)`);
      }
      if (/\{[^}]*\bmodal\b[^}]*\}\s*=\s*(?:AntApp|App)\.useApp\(\)/.test(text) && rel !== 'app/providers.tsx') offenders.push(`${rel}: App.useApp().modal (use useAppModal)`);
      if (/\bModal\.(confirm|info|success|error|warning)\(/.test(text)) offenders.push(`${rel}: static Modal box`);
    }
    expect(offenders).toEqual([]);
  });

  it('imperative boxes get the defaults unless a call says otherwise', () => {
    const calls: Record<string, unknown>[] = [];
    const record = (config: Record<string, unknown>) => {
      calls.push(config);
      return { destroy() {}, update() {}, then: Promise.resolve().then.bind(Promise.resolve()) };
    };
    const fake = { confirm: record, info: record, success: record, error: record, warning: record } as unknown as HookAPI;
    const modal = withDialogDefaults(fake);
    modal.info({ title: 'a' });
    modal.confirm({ title: 'b' });
    modal.warning({ title: 'c', keyboard: true });
    expect(calls[0]).toMatchObject({ ...DIALOG_DEFAULTS, title: 'a' });
    expect(calls[1]).toMatchObject({ ...DIALOG_DEFAULTS, title: 'b' });
    expect(calls[2]).toMatchObject({ keyboard: true, maskClosable: false });
    expect(DIALOG_DEFAULTS).toEqual({ maskClosable: false, keyboard: false });
  });
});

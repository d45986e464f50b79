import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/screenshots/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The shell (login page and layout) has a 250 KiB gzip budget: the contracts index pulls zod in, so the shell
    // imports values from the zod-free subpaths (@kelvin/contracts/menus, /access, /codes); types are free.
    files: ['apps/web/src/{app,layout,lib,stores}/**/*.{ts,tsx}', 'apps/web/src/features/{auth,common}/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: '@kelvin/contracts', message: '外壳代码请从 @kelvin/contracts/menus、/access、/codes 导入（主入口会带入 zod）', allowTypeImports: true }],
      }],
    },
  },
  // ── Web feature boundaries ──────────────────────────────────────────────────────────────────────────────────────
  // A file under apps/web/src/features/X may use another feature only through its public entry (features/Y/index.ts);
  // pieces several features share live in apps/web/src/components or lib. Relative specifiers are matched per folder
  // depth: from features/X/a/b.tsx, '../../Y/…' is always inside features/Y.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`apps/web/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: `^${'\\.\\./'.repeat(depth)}(?!\\.\\.)[^/]+/(?!index$)`,
          message: '功能模块之间只能通过对方的 index.ts 引用（共用的部分放到 components/ 或 lib/）',
        }],
      }],
    },
  })),
);

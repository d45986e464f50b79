import { z } from 'zod';
import { decimal } from './common.ts';

export const AREA_LEVELS = ['region', 'project', 'building', 'floor', 'room'] as const;
export type AreaLevel = (typeof AREA_LEVELS)[number];
export const AREA_LEVEL_LABELS: Record<AreaLevel, string> = {
  region: '区域',
  project: '项目',
  building: '楼栋',
  floor: '楼层',
  room: '房间',
};

const areaCollator = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });

/**
 * The one order of area names wherever areas are listed: digits compare as numbers
 * (1号楼 < 2号楼 < 10号楼, 2层 < 10层, 101室 < 1001室), the rest as Chinese collation.
 */
export function compareAreaNames(a: string, b: string): number {
  return areaCollator.compare(a, b);
}

export interface AreaTreeNode {
  id: number;
  label: string;
  value: number;
  level: AreaLevel;
  /** Project type code (PT…) on project nodes, as the spec's project option carries it. */
  attr4: string | null;
  children: AreaTreeNode[];
  /**
   * Only on a node whose children a `depth`-limited tree left out (its `children` are then empty): how many there are.
   * A screen loads them when the node is opened (`tree/{id}?depth=1`).
   */
  childCount?: number;
}

/** How deep a tree answer goes below the asked node (or below the roots for -1): none = the whole tree. */
export const AREA_TREE_MAX_DEPTH = 4;
export const areaTreeQuery = z.object({
  depth: decimal(z.number({ error: '层数必须是数字' }).int('层数必须是整数').min(0, '层数不能小于 0').max(AREA_TREE_MAX_DEPTH, `层数不能大于 ${AREA_TREE_MAX_DEPTH}`)).optional(),
});

/** The most areas one search answers (a picker shows them as a list; the operator narrows with more words). */
export const AREA_SEARCH_MAX = 200;
const commaList = (v: unknown) => (typeof v === 'string' ? (v === '' ? undefined : v.split(',')) : v);
/**
 * Areas found below a node (`rootId`, -1 for every visible one): by words of their path (「3号楼 304」), or by id (a
 * picker naming what is already chosen). Pickers of a 10,000-room project ask this instead of loading every room.
 */
export const areaSearchQuery = z.object({
  rootId: decimal(z.number({ error: '请选择项目或区域' }).int('区域编号必须是整数')),
  keyword: z.string().trim().max(50, '关键字最多 50 个字符').optional(),
  ids: z.preprocess(commaList, z.array(decimal(z.number({ error: '区域编号必须是数字' }).int('区域编号必须是整数').positive('区域编号必须大于 0')))
    .max(AREA_SEARCH_MAX, `一次最多查 ${AREA_SEARCH_MAX} 个区域`)).optional(),
  levels: z.preprocess(commaList, z.array(z.enum(AREA_LEVELS, { error: '层级只能是 region、project、building、floor、room' }))).optional(),
  limit: decimal(z.number({ error: '条数必须是数字' }).int('条数必须是整数').min(1, '条数至少 1').max(AREA_SEARCH_MAX, `条数最多 ${AREA_SEARCH_MAX}`)).default(50),
}).refine((q) => (q.keyword ?? '') !== '' || q.ids !== undefined, { message: '请输入关键字', path: ['keyword'] });
export type AreaSearchQuery = z.infer<typeof areaSearchQuery>;

/** One area a search found: where it is, as the names below the searched node (「1号楼 / 3层 / 304室」). */
export interface AreaMatch {
  id: number;
  label: string;
  level: AreaLevel;
  parentId: number | null;
  path: string;
  /** how many areas sit right below it */
  childCount: number;
}

export interface ProjectInfo {
  id: number;
  tenantId: number;
  name: string;
  alias: string | null;
  projectType: string | null;
  projectType2: number | null;
  billingScheme: number | null;
  address: string | null;
  lng: number | null;
  lat: number | null;
}

/** Project type catalogue (design §8). */
export const PROJECT_TYPES: { code: string; name: string }[] = [
  { code: 'PT1011', name: '地暖可编程温控' },
  { code: 'PT1012', name: '地暖基础温控' },
  { code: 'PT1013', name: '4G 通断热分摊' },
  { code: 'PT1014', name: '地暖温控带计量' },
  { code: 'PT1015', name: '4G 通断热分摊（二代）' },
  { code: 'PT2010', name: '中央空调时间当量计费' },
  { code: 'PT2012', name: '多联机计费' },
  { code: 'PT2013', name: '4G 空调计费' },
  { code: 'PT2014', name: '中央空调计费带平衡表' },
  { code: 'PT2015', name: '中央空调计费 V2' },
  { code: 'PT2016', name: '中央空调能量当量计费' },
  { code: 'PT2017', name: '4G 空调计费（二代）' },
  { code: 'PT4010', name: '热计量' },
  { code: 'PT4011', name: '热计量带空调计费参数' },
  { code: 'PT4012', name: '热计量带 4G 阀门' },
  { code: 'PT4020', name: '水力平衡' },
  { code: 'PT5000', name: '工厂测试' },
  { code: 'PT5010', name: '4G 电能计量' },
  { code: 'PT5020', name: '光伏' },
  { code: 'PT5030', name: '综合能源' },
];

export const PROJECT_TYPE2: { code: number; name: string }[] = [
  { code: 101, name: '时间当量预付费' },
  { code: 102, name: '时间当量分摊' },
  { code: 103, name: '4G 预付费' },
  { code: 104, name: '4G 分摊' },
  { code: 105, name: '押金制' },
];

export const projectIdParam = z.object({
  projectId: decimal(z.number({ error: '项目编号必须是数字' }).int('项目编号必须是整数').positive('项目编号必须大于 0')),
});
export const areaIdParam = z.object({
  id: decimal(z.number({ error: '区域编号必须是数字' }).int('区域编号必须是整数')),
});

/* ---------- Area maintenance (spec §7.2): one schema for the web form and the server ---------- */

const areaName = z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(50, '名称最多 50 个字符');
/** Room floor area in m², the base of billing by area. */
const floorArea = z.number({ error: '面积必须是数字' }).positive('面积必须大于 0').max(1e6, '面积不能超过 1000000 m²');
export const projectTypeCode = z.enum(PROJECT_TYPES.map((t) => t.code) as [string, ...string[]], { error: '项目类型不存在' });
export const projectType2Code = z.number({ error: '项目二级类型不存在' }).int().refine((v) => PROJECT_TYPE2.some((t) => t.code === v), '项目二级类型不存在');
const billingScheme = z.number({ error: '计费方案必须是数字' }).int('计费方案必须是整数').min(1, '计费方案取值 1～21').max(21, '计费方案取值 1～21');
const lng = z.number({ error: '经度必须是数字' }).min(-180, '经度取值 -180～180').max(180, '经度取值 -180～180');
const lat = z.number({ error: '纬度必须是数字' }).min(-90, '纬度取值 -90～90').max(90, '纬度取值 -90～90');
const address = z.string().trim().max(200, '地址最多 200 个字符');
const contact = z.string().trim().max(50, '联系人最多 50 个字符');
const phone = z.string().trim().regex(/^[0-9+\-() ]{0,32}$/, '联系电话格式不正确');
const remark = z.string().trim().max(500, '备注最多 500 个字符');

export const areaCreateBody = z.object({
  parentId: z.number().int().nullable().default(null),
  level: z.enum(AREA_LEVELS, { error: '区域层级不正确' }),
  name: areaName,
  floorArea: floorArea.nullable().optional(),
  projectType: projectTypeCode.optional(),
  projectType2: projectType2Code.optional(),
  billingScheme: billingScheme.optional(),
  address: address.optional(),
  lng: lng.optional(),
  lat: lat.optional(),
  contact: contact.optional(),
  phone: phone.optional(),
  remark: remark.optional(),
  // The spec's area body carries tenantId; the server ignores it and uses the caller's tenant.
  tenantId: z.unknown().optional(),
});
export type AreaCreateBody = z.infer<typeof areaCreateBody>;

export const areaPatchBody = z.object({
  name: areaName.optional(),
  floorArea: floorArea.nullable().optional(),
  projectType: projectTypeCode.nullable().optional(),
  projectType2: projectType2Code.nullable().optional(),
  billingScheme: billingScheme.nullable().optional(),
  address: address.nullable().optional(),
  lng: lng.nullable().optional(),
  lat: lat.nullable().optional(),
  contact: contact.nullable().optional(),
  phone: phone.nullable().optional(),
  remark: remark.nullable().optional(),
  tenantId: z.unknown().optional(),
});
export type AreaPatchBody = z.infer<typeof areaPatchBody>;

/** Move an area under another parent of the right level in the same tenant. */
export const areaMoveBody = z.object({
  parentId: z.number({ error: '请选择新的上级' }).int('上级编号必须是整数').positive('请选择新的上级'),
});

/** projectlist / projectedit: a project is an area of level project under a region. */
export const projectBody = areaPatchBody.omit({ name: true, floorArea: true, projectType: true, tenantId: true }).extend({
  regionId: z.number({ error: '请选择所属区域' }).int().positive('请选择所属区域'),
  name: areaName,
  projectType: projectTypeCode,
});
export type ProjectBody = z.infer<typeof projectBody>;

export const projectAliasBody = z.object({
  alias: z.string({ error: '请输入项目别名' }).trim().max(100, '项目别名最多 100 个字符'),
});
export const projectIdQuery = z.object({
  projectId: decimal(z.number({ error: '项目编号必须是数字' }).int('项目编号必须是整数').positive('项目编号必须大于 0')),
});
export const areaIdQuery = z.object({
  areaId: decimal(z.number({ error: '区域编号必须是数字' }).int('区域编号必须是整数').positive('区域编号必须大于 0')),
});

export interface AreaDetail extends ProjectInfo {
  parentId: number | null;
  level: AreaLevel;
  floorArea: number | null;
  contact: string | null;
  phone: string | null;
  remark: string | null;
}

/** Counts shown on projectlist / projectview; device figures are null while no device source answers. */
export interface ProjectCounts {
  buildings: number;
  floors: number;
  rooms: number;
  /** Σ room floor area, m² */
  floorArea: number;
  devices: number | null;
  online: number | null;
  /** 0–100, one decimal; null without devices */
  onlineRate: number | null;
  alarmsToday: number | null;
}

export interface ProjectDetail extends AreaDetail {
  projectTypeName: string | null;
  projectType2Name: string | null;
  regionName: string | null;
  counts: ProjectCounts;
}

/** projectindex: a project as a map marker. */
export type ProjectMapStatus = 'normal' | 'alarm' | 'offline' | 'empty' | 'unknown';
export const PROJECT_MAP_STATUS_LABELS: Record<ProjectMapStatus, string> = {
  normal: '正常',
  alarm: '有告警',
  offline: '全部离线',
  empty: '暂无设备',
  unknown: '状态未知',
};
export interface ProjectMapItem {
  id: number;
  name: string;
  alias: string | null;
  projectType: string | null;
  address: string | null;
  lng: number | null;
  lat: number | null;
  status: ProjectMapStatus;
  counts: ProjectCounts;
}

/* ---------- Project files (spec §7.5 static/getProjectFile, removeProjectFile) ---------- */

export const projectFileListBody = z.object({ projectId: projectIdQuery.shape.projectId });
export const projectFileIdBody = z.object({
  fileId: decimal(z.number({ error: '文件编号必须是数字' }).int('文件编号必须是整数').positive('文件编号必须大于 0')),
});
export interface ProjectFile {
  id: number;
  projectId: number;
  name: string;
  size: number;
  mime: string;
  uploadedBy: string | null;
  createdAt: number;
}
/** 20 MB per file. */
export const PROJECT_FILE_MAX_BYTES = 20 * 1024 * 1024;

/* ---------- Excel import templates (spec §7.2 downloadImportModel, importmodel_* lists) ---------- */

export const IMPORT_MODEL_TYPES = ['project', 'gateway', 'areaDevice', 'fpxh', 'sdxs', 'mxxs'] as const;
export type ImportModelType = (typeof IMPORT_MODEL_TYPES)[number];
export const importModelQuery = z.object({
  modelType: z.enum(IMPORT_MODEL_TYPES, { error: '模板类型不存在' }),
});

export interface ImportColumn {
  key: string;
  title: string;
  required: boolean;
  note: string;
  example: string;
}
export interface ImportModel {
  modelType: ImportModelType;
  name: string;
  /** the API that imports a filled-in copy, or null when the template is for reference only */
  importPath: string | null;
  columns: ImportColumn[];
}
export interface ImportRowError {
  /** Excel row number (the header is row 1) */
  row: number;
  column: string | null;
  message: string;
}
export interface ImportResult {
  rows: number;
  created: Record<string, number>;
  updated: number;
}
/** At most this many data rows per file. */
export const IMPORT_MAX_ROWS = 20000;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

import { z } from 'zod';

export const AREA_LEVELS = ['region', 'project', 'building', 'floor', 'room'] as const;
export type AreaLevel = (typeof AREA_LEVELS)[number];
export const AREA_LEVEL_LABELS: Record<AreaLevel, string> = {
  region: '区域',
  project: '项目',
  building: '楼栋',
  floor: '楼层',
  room: '房间',
};

export interface AreaTreeNode {
  id: number;
  label: string;
  value: number;
  level: AreaLevel;
  /** Project type code (PT…) on project nodes, as the spec's project option carries it. */
  attr4: string | null;
  children: AreaTreeNode[];
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
  projectId: z.coerce.number({ error: '项目编号必须是数字' }).int('项目编号必须是整数').positive('项目编号必须大于 0'),
});
export const areaIdParam = z.object({
  id: z.coerce.number({ error: '区域编号必须是数字' }).int('区域编号必须是整数'),
});

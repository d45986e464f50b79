import { PROJECT_TYPES, type ImportColumn, type ImportModel, type ImportModelType } from '@kelvin/contracts';

/** One column of an import template (every template, this module's and the other modules' own, is made of these). */
export const importColumn = (key: string, title: string, required: boolean, note: string, example = ''): ImportColumn => ({ key, title, required, note, example });

const PATH_COLUMNS = [
  importColumn('building', '楼栋', false, '楼栋名称；填了楼层时必填', '1号楼'),
  importColumn('floor', '楼层', false, '楼层或单元名称；填了房间时必填', '1层'),
  importColumn('room', '房间', false, '房间名称', '101'),
];

/**
 * The Excel templates of spec §7.2 (downloadImportModel?modelType=, importmodel_* lists). Every import reads its
 * columns by these titles, so a file made from another template is recognised as the wrong one.
 */
export const IMPORT_MODELS: Record<ImportModelType, ImportModel> = {
  project: {
    modelType: 'project',
    name: '项目楼宇导入模板',
    importPath: '/api/v1/area/projectimport',
    columns: [
      importColumn('region', '区域', true, '区域名称；不存在时新建', '华北区域'),
      importColumn('project', '项目', true, '项目名称；不存在时新建', '阳光花园小区'),
      importColumn('projectType', '项目类型', false, `新项目必填，填编码或名称，如 ${PROJECT_TYPES[0].code}`, PROJECT_TYPES[0].code),
      ...PATH_COLUMNS,
      importColumn('floorArea', '面积(m²)', false, '房间面积，按面积计费时使用', '89.5'),
      importColumn('address', '项目地址', false, '同一项目只需填一次', '北京市朝阳区阳光路 8 号'),
      importColumn('lng', '经度', false, '-180～180，与纬度同时填写，用于地图总览', '116.48'),
      importColumn('lat', '纬度', false, '-90～90', '39.95'),
    ],
  },
  gateway: {
    modelType: 'gateway',
    name: '网关导入模板',
    importPath: '/api/v1/device/gatewayimport',
    columns: [
      importColumn('deviceCode', '网关编号', true, '网关的唯一编号（设备上的编码）', 'GW0001'),
      importColumn('deviceName', '网关名称', true, '', '1号楼网关'),
      importColumn('deviceType', '网关类型', false, '设备类型编码，默认 gateway', 'gateway'),
      importColumn('building', '楼栋', false, '网关安装的楼栋', '1号楼'),
      importColumn('remark', '备注', false, '', '弱电井'),
    ],
  },
  areaDevice: {
    modelType: 'areaDevice',
    name: '区域设备导入模板',
    importPath: '/api/v1/device/deviceimport',
    columns: [
      ...PATH_COLUMNS,
      importColumn('deviceType', '设备类型', true, '设备类型编码或名称，如 device20030', 'device20030'),
      importColumn('deviceCode', '设备编号', true, '设备的唯一编号（设备上的编码）', '20030000101'),
      importColumn('deviceName', '设备名称', true, '', '101 客厅温控器'),
      importColumn('gatewayCode', '网关编号', false, '经网关接入时填写', 'GW0001'),
      importColumn('remark', '备注', false, '', ''),
    ],
  },
  fpxh: {
    modelType: 'fpxh',
    name: '风盘型号导入模板',
    importPath: null,
    columns: [
      importColumn('model', '型号', true, '风机盘管型号', 'FP-68'),
      importColumn('coolingKw', '额定制冷量(kW)', true, '', '3.6'),
      importColumn('heatingKw', '额定制热量(kW)', false, '', '5.4'),
      importColumn('factor', '能量当量系数', true, '能量当量计费时乘以运行当量', '1.2'),
    ],
  },
  sdxs: {
    modelType: 'sdxs',
    name: '速档系数导入模板',
    importPath: null,
    columns: [
      importColumn('project', '项目', true, '项目名称', '金融中心写字楼'),
      importColumn('high', '高速系数', true, '高速运行 1 小时折算的当量', '1'),
      importColumn('medium', '中速系数', true, '', '0.8'),
      importColumn('low', '低速系数', true, '', '0.6'),
    ],
  },
  mxxs: {
    modelType: 'mxxs',
    name: '设备系数明细导入模板',
    importPath: null,
    columns: [
      importColumn('deviceCode', '设备编号', true, '', '20030000101'),
      importColumn('factor', '系数', true, '该设备的计费修正系数', '1.05'),
      importColumn('effectiveDate', '生效日期', false, 'YYYY-MM-DD', '2026-01-01'),
    ],
  },
};

/** The importmodel_* list endpoints of spec §7.2, each naming the templates of its kind. */
export const IMPORT_MODEL_LISTS: Record<string, ImportModelType[]> = {
  importmodel_projectlist: ['project'],
  importmodel_gatewaylist: ['gateway'],
  importmodel_areadevicelist: ['areaDevice'],
  importmodel_fpxhlist: ['fpxh'],
  importmodel_sdxslist: ['sdxs'],
  importmodel_mxxslist: ['mxxs'],
};

/**
 * The one source of truth for the menu tree of spec §2.5: the server seeds its `menu` and `menu_element` rows from
 * it and the web route table is generated from it. A new screen is one entry here plus one page component.
 *
 * - `group` is the top-level route group: every screen's path is `/{group}/{code}` (plus an optional param), also
 *   for screens nested under a sub-directory (spec: "nested children recurse").
 * - `projectTypes`, `projectType2` and `reportGroups` are the visibility rules of spec §6 (see access.ts).
 */
export type MenuType = 'dirt' | 'menu';
export type ElementKind = 'view' | 'btn_add' | 'btn_edit' | 'btn_del' | 'export' | 'control' | MoneyElementKind;
/** Money elements (accounts.ts): top-up, refund, refund approval (a second user), deposit moves, move-out settlement, 核对账目, whole ID numbers. */
export type MoneyElementKind = 'topup' | 'refund' | 'refund_approve' | 'deposit' | 'settle' | 'reconcile' | 'idnumber';
export type ReportGroup = 'report1' | 'report2' | 'report3' | 'report4';

export interface MenuDef {
  code: string;
  title: string;
  icon?: string;
  parent: string | null;
  group: string;
  type: MenuType;
  /** route path: `/{group}/{code}` with an optional `/:projectId?` */
  path: string;
  href?: string;
  order: number;
  hidden?: boolean;
  /** route param suffix, e.g. ':projectId?' */
  param?: string;
  elements: ElementKind[];
  projectTypes?: string[];
  projectType2?: number[];
  reportGroups?: ReportGroup[];
}

const CRUD: ElementKind[] = ['view', 'btn_add', 'btn_edit', 'btn_del', 'export'];
const EDIT: ElementKind[] = ['view', 'btn_edit'];
const MONITOR: ElementKind[] = ['view', 'control', 'export'];
const REPORT: ElementKind[] = ['view', 'export'];
const VIEW: ElementKind[] = ['view'];
const ACCOUNTS: ElementKind[] = [...CRUD, 'topup', 'refund', 'refund_approve', 'settle', 'reconcile', 'idnumber'];
const DEPOSIT: ElementKind[] = [...CRUD, 'deposit'];

type Entry = [code: string, title: string, elements: ElementKind[], extra?: Partial<Pick<MenuDef, 'hidden' | 'param' | 'projectTypes' | 'projectType2' | 'reportGroups' | 'icon'>>];
interface GroupSpec {
  code: string;
  title: string;
  icon: string;
  children: (Entry | { dir: string; title: string; icon: string; children: Entry[] })[];
}

const AC_BILLING = ['PT2010', 'PT2016', 'PT2014'];

/**
 * /datacenter screens with pages of their own — workflows rather than reports (repairRecord, deviceBindManager,
 * depositRecharge, depositDirect, the datademo explorer) and the automation issue's exception screens. Every other
 * /datacenter screen is an entry of the report registry (reports.ts; a test holds the two together).
 */
export const DATACENTER_WORKFLOW_CODES = ['repairRecord', 'deviceBindManager', 'depositRecharge', 'depositDirect', 'datademo', 'exceptiondata', 'projectFaultDeviceList'] as const;

const TREE: GroupSpec[] = [
  {
    code: 'project', title: '项目管理', icon: 'ProjectOutlined',
    children: [
      ['projectindex', '地图总览', VIEW],
      ['monitoringCenterTose', '综合大屏', VIEW],
      // btn_add: create a public share link (/dataviews); btn_del: revoke one
      ['monitorScreen', '项目大屏', ['view', 'btn_add', 'btn_del']],
      ['electricMeterEnergyView', '电表能耗视图', REPORT],
      ['projectview', '项目详情', EDIT],
      ['projectview2', '项目视图', MONITOR],
      ['projectView3', '平衡阀视图', MONITOR],
      ['projectlist', '项目列表', CRUD],
      ['projectedit', '项目编辑', EDIT],
    ],
  },
  {
    code: 'device', title: '设备管理', icon: 'ApiOutlined',
    children: [
      ['area', '楼宇与设备', CRUD],
      ['deviceList_n', '设备列表', CRUD],
      ['devicepage', '设备页面', MONITOR, { param: ':projectId?' }],
      ['devicemonitor', '设备监控', MONITOR],
      ['deviceprogram', '编程设置', CRUD, { projectTypes: ['PT1011', 'PT1014'] }],
      ['devicegroup', '设备分组', CRUD],
      ['gatewayControl', '网关管理', CRUD],
      ['task', '定时任务', CRUD],
      ['scheduledTask', '周期任务', CRUD],
      ['memoryScheduledTask', '记忆周期任务', CRUD],
      ['strategicsTask', '策略任务', CRUD],
      ['holidayTask', '节假日任务', CRUD],
      ['jffa2020x1', '计费方案设置', CRUD, { param: ':projectId?' }],
      ['equipmentBilling_n', '设备计费', CRUD],
      ['addDevicePlan_n', '添加设备方案', CRUD, { hidden: true }],
      ['overtimePool_n', '超时池', [...REPORT, 'btn_edit']],
      ['batchpara', '批量参数设置', ['view', 'control']],
      ['ag2410chargedata', 'AG2410 计费数据', REPORT, { param: ':projectId?' }],
      ['deviceoperationlog', '设备操作日志', REPORT],
      ['deviceCardInfoList', '物联网卡信息', CRUD],
      ['temperatureMap_n', '温度分布图', VIEW, { hidden: true }],
      ['mqttSetting_n', 'MQTT 设置', EDIT, { projectTypes: ['PT5000'] }],
      ['dodifyDeviceIP_n', '修改设备地址', ['view', 'control'], { projectTypes: ['PT5010'] }],
      ['deviceOnline_n', '设备在线统计', REPORT],
      {
        dir: 'deviceTypes', title: '设备类型监控', icon: 'DashboardOutlined',
        children: [
          ['device20000', '温控器（20000）', MONITOR],
          ['device20020', '地暖温控器', MONITOR, { projectTypes: ['PT1011', 'PT1012', 'PT1014'] }],
          ['device20030', '空调计费温控器', MONITOR, { projectTypes: AC_BILLING }],
          ['device20030V2', '空调计费温控器 V2', MONITOR, { projectTypes: ['PT2015'] }],
          ['device20040', '风机盘管温控器', MONITOR],
          ['device20050', '热泵控制器', MONITOR],
          ['device20070', '配电器', MONITOR],
          ['device20090', '电能表', MONITOR],
          ['device20110', '多联机计费温控器', MONITOR, { projectTypes: ['PT2012'] }],
          ['device20120', '水力平衡调节阀', MONITOR, { projectTypes: ['PT4020'] }],
          ['device20130', '户用热泵', MONITOR],
          ['device20150', '新风控制器', MONITOR],
          ['device618_n', '618 温控器', MONITOR],
          ['device801_n', '801 控制器', MONITOR],
          ['AirCabinetController', '空调柜机控制器', MONITOR],
          ['deviceSolar_n', '光伏逆变器', MONITOR],
          ['device24201_n', '24201 单相电能表', MONITOR],
          ['device24202_n', '24202 三相电能表', MONITOR],
          ['device4gElectric', '4G 电能表', MONITOR],
          ['device4GHeating', '4G 采暖控制器', MONITOR],
          ['deviceAG2410', 'AG2410 通断控制器', MONITOR, { projectTypes: ['PT1013', 'PT1015', 'PT4012'] }],
          ['deviceAG2420', 'AG2420 4G 空调计费器', MONITOR, { projectTypes: ['PT2013', 'PT2017'] }],
          ['calorimeter', '热量表', MONITOR, { projectTypes: ['PT4010', 'PT4011', 'PT4012'] }],
          ['calorimeterBy4GRTU', '4G RTU 热量表', MONITOR],
          ['balanceValve', '平衡阀', MONITOR],
          ['systemController_n', '系统控制器', MONITOR],
        ],
      },
      {
        dir: 'testEquipment', title: '测试设备', icon: 'ExperimentOutlined',
        children: [
          ['testEquipment_n', '设备测试', MONITOR, { projectTypes: ['PT5000'] }],
          ['testBLDCXEquipment', '直流无刷风机测试', MONITOR, { projectTypes: ['PT5000'] }],
          ['testSolarEquipment', '光伏设备测试', MONITOR, { projectTypes: ['PT5000'] }],
          ['testAirCabinetControllerEquipment', '柜机控制器测试', MONITOR, { projectTypes: ['PT5000'] }],
          ['equipmentRecords_n', '测试记录', REPORT, { projectTypes: ['PT5000'] }],
          ['testDeviceStatus', '测试设备状态', VIEW, { projectTypes: ['PT5000'] }],
        ],
      },
    ],
  },
  {
    code: 'businesscenter', title: '业务中心', icon: 'AccountBookOutlined',
    children: [
      ['equipmentCostShare_n', '设备费用分摊', CRUD],
      ['devicedeposit', '设备押金', DEPOSIT],
      ['device20030para', '空调计费参数', EDIT, { projectTypes: [...AC_BILLING, 'PT4011'] }],
      ['billingFactor_n', '电能计费系数', EDIT, { projectTypes: ['PT5010'] }],
      ['billingFactorSolar_n', '光伏计费系数', EDIT, { projectTypes: ['PT5020'] }],
      ['billingFactorHeating', '采暖计费系数', EDIT],
      ['deviceAG2420para', 'AG2420 计费参数', EDIT, { projectTypes: ['PT2013', 'PT2017'] }],
      ['billingScheme', '计费方案', CRUD, { projectType2: [105] }],
      ['jfsd', '计费时段', CRUD, { projectType2: [101, 102] }],
      ['jffa2021x1', '4G 计费方案', CRUD, { projectType2: [103, 104] }],
      ['groupmanagers', '分组管理', CRUD],
      ['userGroup', '用户组', CRUD],
      ['groupexpsshare', '分摊组', CRUD, { projectType2: [102, 104] }],
      ['devicerelation', '设备关联', CRUD, { projectType2: [102, 104] }],
      ['userPayFeeUpper', '缴费上限', CRUD],
      ['depositManage', '押金管理', DEPOSIT, { projectType2: [105] }],
      ['depositManage_n', '押金管理（新）', DEPOSIT, { projectType2: [105] }],
      ['monitorrules', '监控规则', CRUD],
      ['projectpara', '项目参数', EDIT, { projectType2: [101, 102, 103, 104] }],
      ['devicebasefee', '设备基础费', CRUD, { projectType2: [101, 102, 103, 104] }],
      ['expensebill', '费用账单', CRUD, { projectType2: [101, 102, 103, 104] }],
      ['billingrules_n', '计费规则', CRUD],
      ['userRegister_n', '用户登记', ACCOUNTS],
    ],
  },
  {
    code: 'datacenter', title: '数据中心', icon: 'BarChartOutlined',
    children: [
      ['operateRecord', '充值记录', REPORT, { projectType2: [101, 102] }],
      ['repairRecord', '维修记录', CRUD],
      ['userList_n', '用户列表', REPORT],
      ['deviceBindRecord', '设备绑定记录', REPORT],
      ['datastats', '数据统计', REPORT],
      ['annualData', '年度数据', REPORT],
      ['airconcostdata', '空调费用数据', REPORT],
      ['calorimeterchargedata', '热量表计费数据', REPORT, { projectType2: [101, 102] }],
      ['ag2420chargedata', 'AG2420 计费数据', REPORT, { projectType2: [103, 104] }],
      ['depositdata', '押金数据', REPORT, { projectType2: [105] }],
      ['expensebilldata', '账单数据', REPORT, { projectType2: [101, 102, 103, 104] }],
      ['balancetable', '平衡表', REPORT, { projectTypes: ['PT2014'] }],
      ['balancetableAF900', 'AF900 平衡表', REPORT, { projectTypes: ['PT4020'] }],
      ['depositreport', '押金报表', REPORT, { projectType2: [105] }],
      ['exceptiondata', '异常数据', ['view', 'btn_edit', 'export'], { projectType2: [101, 102, 103, 104] }],
      ['useroperationlog', '用户操作日志', REPORT],
      ['payReport', '缴费报表', REPORT],
      ['payReport_n', '缴费报表（新）', REPORT, { reportGroups: ['report4'] }],
      ['refundTable', '退费表', REPORT, { hidden: true }],
      ['refundTable_n', '退费表（新）', REPORT, { hidden: true }],
      ['datademo', '数据示例', VIEW],
      ['dataDetails_n', '数据明细', REPORT, { reportGroups: ['report1'] }],
      ['billingDataAllocation_n', '计费数据分摊', REPORT, { reportGroups: ['report3'] }],
      ['accountingPeriod_n', '核算周期', REPORT, { reportGroups: ['report2'] }],
      ['summaryReport_n', '汇总报表', REPORT, { reportGroups: ['report1'] }],
      ['ladderReport_n', '阶梯电价报表', REPORT, { reportGroups: ['report2'] }],
      ['shareReport_n', '分摊报表', REPORT, { reportGroups: ['report3'] }],
      ['deviceStatus_n', '设备状态', REPORT, { projectTypes: ['PT5010', 'PT5020', 'PT5030'] }],
      ['depositRecharge', '押金充值', CRUD],
      ['depositDirect', '押金直充', CRUD],
      ['deviceBindManager', '设备绑定管理', CRUD],
      ['deviceOperationRecord', '设备操作记录', REPORT],
      ['projectFaultDeviceList', '故障设备列表', REPORT],
    ],
  },
  {
    code: 'baseManager', title: '基础管理', icon: 'SettingOutlined',
    children: [
      ['menuManager', '菜单管理', CRUD],
      ['tenantManager', '租户管理', CRUD],
      ['smsManager', '短信管理', CRUD],
      ['groupManager', '角色权限管理', CRUD],
      ['groupTypeManager', '角色类型管理', CRUD],
      ['gateLogManager', '操作日志', REPORT],
      ['userManager', '用户管理', CRUD],
      ['changepassword', '修改密码', EDIT],
    ],
  },
  {
    code: 'system_n', title: '系统设置', icon: 'ToolOutlined',
    children: [
      ['setting_n', '系统参数', EDIT],
      ['holidayManagement_n', '节假日管理', CRUD],
      ['smsRecordList', '短信记录', REPORT],
      ['defaultSmsSetting', '默认短信设置', EDIT],
    ],
  },
  {
    code: 'departmentEnergy', title: '部门能耗', icon: 'PieChartOutlined',
    children: [
      ['departmentMain', '部门能耗总览', CRUD],
      ['departmentStaticEnergy', '部门能耗统计', REPORT],
      ['departmentEnergyCompare', '部门能耗对比', REPORT],
    ],
  },
  {
    code: 'monitorManager', title: '服务监控', icon: 'CloudServerOutlined',
    children: [
      ['serviceEurekaManager', '服务注册中心', VIEW],
      ['serviceMonitorManager', '服务运行监控', ['view', 'control']],
      ['serviceZipkinManager', '调用链路追踪', VIEW],
    ],
  },
  {
    code: 'businessSys', title: '业务系统', icon: 'ClusterOutlined',
    children: [
      ['dict', '数据字典', CRUD],
      ['thermostat', '温控器管理', MONITOR, { param: ':projectId?' }],
      ['thermostatprogram', '温控器编程', CRUD, { param: ':projectId?' }],
      ['programscheme', '编程方案', CRUD],
      ['monitor', '运行监控', MONITOR, { param: ':projectId?' }],
    ],
  },
];

function flatten(): MenuDef[] {
  const out: MenuDef[] = [];
  let order = 0;
  const leaf = (e: Entry, parent: string, group: string): MenuDef => {
    const [code, title, elements, extra = {}] = e;
    return { code, title, parent, group, type: 'menu', path: `/${group}/${code}`, order: order++, elements, ...extra };
  };
  for (const g of TREE) {
    out.push({ code: g.code, title: g.title, icon: g.icon, parent: null, group: g.code, type: 'dirt', path: `/${g.code}`, order: order++, elements: [] });
    for (const c of g.children) {
      if (Array.isArray(c)) {
        out.push(leaf(c, g.code, g.code));
      } else {
        out.push({ code: c.dir, title: c.title, icon: c.icon, parent: g.code, group: g.code, type: 'dirt', path: `/${g.code}/${c.dir}`, order: order++, elements: [] });
        for (const e of c.children) out.push(leaf(e, c.dir, g.code));
      }
    }
  }
  return out;
}

export const MENUS: readonly MenuDef[] = flatten();
export const MENU_BY_CODE: ReadonlyMap<string, MenuDef> = new Map(MENUS.map((m) => [m.code, m]));

/** The top-level route groups, i.e. the spec's parent codes. */
export const ROOT_MENU_CODES = MENUS.filter((m) => m.parent === null).map((m) => m.code);

/** Element (button/API permission) codes of a menu: `menuCode:kind`. */
export function elementCodes(m: Pick<MenuDef, 'code' | 'elements'>): string[] {
  return m.elements.map((k) => `${m.code}:${k}`);
}

export const elementCode = (menuCode: string, kind: ElementKind) => `${menuCode}:${kind}`;

/** The menus every part of the platform itself needs; only the platform tenant holds them. */
export const PLATFORM_ONLY_MENUS: ReadonlySet<string> = new Set(['tenantManager', 'menuManager', 'monitorManager', 'serviceEurekaManager', 'serviceMonitorManager', 'serviceZipkinManager']);

/**
 * Which component renders which screen code. A new screen is one line here (plus its component); the route itself
 * comes from the menu tree in packages/contracts/src/menus.ts.
 */
import { DATACENTER_WORKFLOW_CODES, MENUS } from '@kelvin/contracts/menus';
import { registerPages } from './pages';

void registerPages;

// administration and system settings
registerPages(['tenantManager'], () => import('../features/admin/pages/tenant-manager'));
registerPages(['userManager'], () => import('../features/admin/pages/user-manager'));
registerPages(['groupManager'], () => import('../features/admin/pages/group-manager'));
registerPages(['groupTypeManager'], () => import('../features/admin/pages/group-type-manager'));
registerPages(['menuManager'], () => import('../features/admin/pages/menu-manager'));
registerPages(['gateLogManager'], () => import('../features/admin/pages/gate-log-manager'));
registerPages(['changepassword'], () => import('../features/admin/pages/change-password'));
registerPages(['smsManager'], () => import('../features/system/pages/sms-manager'));
registerPages(['smsRecordList'], () => import('../features/system/pages/sms-record-list'));
registerPages(['defaultSmsSetting'], () => import('../features/system/pages/default-sms-setting'));
registerPages(['setting_n'], () => import('../features/system/pages/setting'));
registerPages(['holidayManagement_n'], () => import('../features/system/pages/holiday-management'));
registerPages(['serviceMonitorManager'], () => import('../features/system/pages/service-monitor'));
registerPages(['serviceEurekaManager'], () => import('../features/system/pages/service-eureka'));
registerPages(['serviceZipkinManager'], () => import('../features/system/pages/service-zipkin'));

// monitoring rules and alarms (the bell opens this screen)
registerPages(['monitorrules'], () => import('../features/monitoring/pages/monitor-rules'));
registerPages(['exceptiondata'], () => import('../features/monitoring/pages/exception-data'));
registerPages(['projectFaultDeviceList'], () => import('../features/monitoring/pages/fault-devices'));
registerPages(['monitor'], () => import('../features/monitoring/pages/run-monitor'));

// 数据字典: the registries as dictionaries, with the tenant's display names
registerPages(['dict'], () => import('../features/dictionary/pages/dict'));
// 设备页面: a project's devices grouped by type, live
registerPages(['devicepage'], () => import('../features/devices/pages/device-page'));

// automation: week programs (one editor for 编程设置 / 温控器编程 / 编程方案), tasks of every kind, the overtime pool
registerPages(['deviceprogram', 'thermostatprogram'], () => import('../features/automation/pages/week-programs'));
registerPages(['programscheme'], () => import('../features/automation/pages/program-schemes'));
registerPages(['task', 'scheduledTask', 'strategicsTask', 'holidayTask'], () => import('../features/automation/pages/tasks'));
registerPages(['memoryScheduledTask'], () => import('../features/automation/pages/memory-scheduled-task'));
registerPages(['overtimePool_n'], () => import('../features/automation/pages/overtime-pool'));
registerPages(['thermostat'], () => import('../features/automation/pages/thermostats'));

// 数据示例: one device field's readings as a chart and a table
registerPages(['datademo'], () => import('../features/datademo/pages/data-demo'));

// live devices: the registry-driven monitor serves devicemonitor and every device-type page
registerPages(['devicemonitor', ...MENUS.filter((m) => m.parent === 'deviceTypes').map((m) => m.code)], () => import('../features/devices/pages/device-monitor'));

// projects, areas and device management
registerPages(['area'], () => import('../features/projects/pages/area'));
registerPages(['projectlist'], () => import('../features/projects/pages/project-list'));
registerPages(['projectedit'], () => import('../features/projects/pages/project-edit'));
registerPages(['projectview'], () => import('../features/projects/pages/project-view'));
registerPages(['projectindex'], () => import('../features/projects/pages/project-index'));
// big screens: full-viewport dark dashboards over the shell
registerPages(['monitoringCenterTose'], () => import('../features/bigscreen/pages/overview'));
registerPages(['monitorScreen'], () => import('../features/bigscreen/pages/project-screen'));
registerPages(['projectview2'], () => import('../features/projects/pages/project-view2'));
registerPages(['deviceList_n'], () => import('../features/device-management/pages/device-list'));
registerPages(['devicegroup'], () => import('../features/device-management/pages/device-group'));
registerPages(['batchpara'], () => import('../features/device-management/pages/batch-para'));
registerPages(['deviceCardInfoList'], () => import('../features/device-management/pages/device-card-info'));
registerPages(['projectView3'], () => import('../features/device-management/pages/project-view3'));
registerPages(['deviceOnline_n'], () => import('../features/device-management/pages/device-online'));
registerPages(['dodifyDeviceIP_n'], () => import('../features/device-management/pages/modify-device-ip'));
registerPages(['mqttSetting_n'], () => import('../features/device-management/pages/mqtt-setting'));
registerPages(['temperatureMap_n'], () => import('../features/device-management/pages/temperature-map'));
registerPages(['testEquipment_n', 'testBLDCXEquipment', 'testSolarEquipment', 'testAirCabinetControllerEquipment'], () => import('../features/device-management/pages/factory-bench'));
registerPages(['equipmentRecords_n'], () => import('../features/device-management/pages/equipment-records'));
registerPages(['testDeviceStatus'], () => import('../features/device-management/pages/test-device-status'));
registerPages(['gatewayControl'], () => import('../features/device-management/pages/gateway-control'));
registerPages(['deviceoperationlog'], () => import('../features/device-management/pages/device-operation-log'));

// accounts and money: the people billed, top-ups, refunds, deposits, groups, limits, payment accounts and orders
registerPages(['userRegister_n'], () => import('../features/accounts/pages/user-register'));
registerPages(['userGroup', 'groupmanagers'], () => import('../features/accounts/pages/user-group'));
registerPages(['devicedeposit', 'depositManage', 'depositManage_n'], () => import('../features/accounts/pages/deposit-manage'));
registerPages(['userPayFeeUpper'], () => import('../features/accounts/pages/pay-fee-upper'));

// data center workflows: repair work orders, binding devices to rooms, deposit collections and 直充 batches
registerPages(['repairRecord'], () => import('../features/repairs/pages/repair-record'));
registerPages(['deviceBindManager'], () => import('../features/device-management/pages/device-bind-manager'));
registerPages(['depositRecharge'], () => import('../features/accounts/pages/deposit-recharge'));
registerPages(['depositDirect'], () => import('../features/accounts/pages/deposit-direct'));

// billing: configuration — the versioned tariff (one section per screen), device parameters, share teams, plans
registerPages(['billingScheme'], () => import('../features/billing/pages/config-billing-scheme'));
registerPages(['projectpara'], () => import('../features/billing/pages/config-project-para'));
registerPages(['jfsd'], () => import('../features/billing/pages/config-tou'));
registerPages(['jffa2021x1'], () => import('../features/billing/pages/config-4g-scheme'));
registerPages(['billingrules_n'], () => import('../features/billing/pages/config-ladder'));
registerPages(['billingFactor_n'], () => import('../features/billing/pages/config-electric-factor'));
registerPages(['billingFactorSolar_n'], () => import('../features/billing/pages/config-solar-factor'));
registerPages(['billingFactorHeating'], () => import('../features/billing/pages/config-heating-factor'));
registerPages(['device20030para', 'deviceAG2420para', 'devicebasefee'], () => import('../features/billing/pages/config-device-params'));
registerPages(['groupexpsshare'], () => import('../features/billing/pages/config-share-teams'));
registerPages(['devicerelation'], () => import('../features/billing/pages/config-device-relation'));
registerPages(['jffa2020x1'], () => import('../features/billing/pages/config-plans'));
registerPages(['addDevicePlan_n'], () => import('../features/billing/pages/config-add-device-plan'));

// billing: runs, bills and supply
registerPages(['equipmentBilling_n'], () => import('../features/billing/pages/engine-billing'));
registerPages(['expensebill'], () => import('../features/billing/pages/engine-expense-bill'));
registerPages(['equipmentCostShare_n'], () => import('../features/billing/pages/engine-cost-share'));
registerPages(['ag2410chargedata'], () => import('../features/billing/pages/engine-ag2410'));

// the data center: every report of the registry (contracts reports.ts) through one page
registerPages(
  MENUS.filter((m) => m.parent === 'datacenter' && m.type === 'menu' && !(DATACENTER_WORKFLOW_CODES as readonly string[]).includes(m.code)).map((m) => m.code),
  () => import('../features/reports/pages/report-page'),
);

// 部门能耗: the department tree with budgets, statistics per department × period, comparison
registerPages(['departmentMain'], () => import('../features/departments/pages/department-main'));
registerPages(['departmentStaticEnergy'], () => import('../features/departments/pages/department-statistic'));
registerPages(['departmentEnergyCompare'], () => import('../features/departments/pages/department-compare'));

// 电表能耗视图: a report of the registry (electricity by meter, building or project with its 峰/平/谷 split)
registerPages(['electricMeterEnergyView'], () => import('../features/reports/pages/report-page'));

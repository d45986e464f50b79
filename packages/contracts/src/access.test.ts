import { describe, expect, it } from 'vitest';
import { canOpen, menuFitsProject, mobileProjectParam, projectIdFromMobileParam, reportGroupsOf, visibleMenuCodes } from './access.ts';
import { MENUS, MENU_BY_CODE, elementCodes } from './menus.ts';

const ALL_CODES = new Set(MENUS.flatMap((m) => [m.code, ...elementCodes(m)]));
const ALL_PROJECT_TYPES = ['PT1011', 'PT1012', 'PT1013', 'PT1014', 'PT1015', 'PT2010', 'PT2012', 'PT2013', 'PT2014', 'PT2015', 'PT2016', 'PT2017', 'PT4010', 'PT4011', 'PT4012', 'PT4020', 'PT5000', 'PT5010', 'PT5020', 'PT5030'];
const TEST_EQUIPMENT = ['testEquipment_n', 'testBLDCXEquipment', 'testSolarEquipment', 'testAirCabinetControllerEquipment', 'equipmentRecords_n', 'testDeviceStatus'];

/** Spec §6, project-type table, one row per line: the project types that show each item. */
const PROJECT_TYPE_ROWS: [string[], string[]][] = [
  [['PT1011', 'PT1012', 'PT1014'], ['device20020']],
  [['PT1011', 'PT1014'], ['deviceprogram']],
  [['PT2010', 'PT2016', 'PT2014'], ['device20030']],
  [['PT2010', 'PT2016', 'PT2014', 'PT4011'], ['device20030para']],
  [['PT1013', 'PT1015', 'PT4012'], ['deviceAG2410']],
  [['PT2013', 'PT2017'], ['deviceAG2420', 'deviceAG2420para']],
  [['PT4010', 'PT4011', 'PT4012'], ['calorimeter']],
  [['PT2012'], ['device20110']],
  [['PT4020'], ['device20120', 'balancetableAF900']],
  [['PT5000'], [...TEST_EQUIPMENT, 'mqttSetting_n']],
  [['PT5010'], ['dodifyDeviceIP_n', 'billingFactor_n']],
  [['PT5020'], ['billingFactorSolar_n']],
  [['PT5010', 'PT5020', 'PT5030'], ['deviceStatus_n']],
  [['PT2015'], ['device20030V2']],
  [['PT2014'], ['balancetable']],
];

/** Spec §6, projectType2 table. */
const PROJECT_TYPE2_ROWS: [number[], string[]][] = [
  [[105], ['billingScheme', 'depositManage', 'depositManage_n', 'depositdata', 'depositreport']],
  [[101, 102], ['jfsd', 'operateRecord', 'calorimeterchargedata']],
  [[103, 104], ['jffa2021x1', 'ag2420chargedata']],
  [[102, 104], ['groupexpsshare', 'devicerelation']],
  [[101, 102, 103, 104], ['projectpara', 'devicebasefee', 'expensebill', 'expensebilldata', 'exceptiondata']],
];

/** Spec §6, report-form dependency. */
const REPORT_ROWS: [string, string[]][] = [
  ['report4', ['payReport_n']],
  ['report1', ['dataDetails_n', 'summaryReport_n']],
  ['report2', ['accountingPeriod_n', 'ladderReport_n']],
  ['report3', ['billingDataAllocation_n', 'shareReport_n']],
];

describe('spec §6 project-type table', () => {
  for (const [types, items] of PROJECT_TYPE_ROWS) {
    for (const item of items) {
      it(`${item} shows exactly for ${types.join(', ')}`, () => {
        for (const pt of ALL_PROJECT_TYPES) {
          const visible = visibleMenuCodes(ALL_CODES, { projectType: pt, projectType2: 101, billingScheme: 1 });
          expect(visible.has(item), `${item} @ ${pt}`).toBe(types.includes(pt));
        }
        // no project type chosen: a type-bound item is not shown
        expect(visibleMenuCodes(ALL_CODES, {}).has(item)).toBe(false);
      });
    }
  }
});

describe('spec §6 projectType2 table', () => {
  for (const [codes, items] of PROJECT_TYPE2_ROWS) {
    for (const item of items) {
      it(`${item} shows exactly for projectType2 ${codes.join(', ')}`, () => {
        for (const t2 of [101, 102, 103, 104, 105]) {
          expect(visibleMenuCodes(ALL_CODES, { projectType: 'PT1011', projectType2: t2 }).has(item), `${item} @ ${t2}`).toBe(codes.includes(t2));
        }
      });
    }
  }
});

describe('billing scheme → report groups (spec §4) and the report-form items', () => {
  it('maps every paraValue 1–21 as the spec says', () => {
    for (let v = 1; v <= 21; v++) {
      const g = reportGroupsOf(v);
      expect(g.has('report1'), `report1 @ ${v}`).toBe((v >= 1 && v <= 6) || v === 21);
      expect(g.has('report2'), `report2 @ ${v}`).toBe(v === 7 || v === 8);
      expect(g.has('report3'), `report3 @ ${v}`).toBe(v >= 9 && v <= 20);
      expect(g.has('report4'), `report4 @ ${v}`).toBe(v <= 19 && v % 2 === 1);
    }
    expect([...reportGroupsOf(null)]).toEqual([]);
    expect([...reportGroupsOf(undefined)]).toEqual([]);
    expect([...reportGroupsOf(22)]).toEqual([]);
  });
  for (const [group, items] of REPORT_ROWS) {
    for (const item of items) {
      it(`${item} follows ${group}`, () => {
        for (let v = 1; v <= 21; v++) {
          const shown = visibleMenuCodes(ALL_CODES, { projectType: 'PT1011', projectType2: 101, billingScheme: v }).has(item);
          expect(shown, `${item} @ scheme ${v}`).toBe(reportGroupsOf(v).has(group as 'report1'));
        }
        // no scheme clears the report groups
        expect(visibleMenuCodes(ALL_CODES, { projectType: 'PT1011', billingScheme: null }).has(item)).toBe(false);
      });
    }
  }
});

describe('grants', () => {
  it('a screen needs its own code; a directory needs its code and a visible child', () => {
    const granted = new Set(['device', 'devicemonitor']);
    const v = visibleMenuCodes(granted, { projectType: 'PT1011' });
    expect([...v].sort()).toEqual(['device', 'devicemonitor']);
    expect(visibleMenuCodes(new Set(['devicemonitor']), {}).has('device')).toBe(false);
    expect(visibleMenuCodes(new Set(['device']), {}).has('device')).toBe(false);
  });
  it('nested directories (设备类型监控) show when one of their screens does', () => {
    const v = visibleMenuCodes(new Set(['device', 'deviceTypes', 'device20020']), { projectType: 'PT1012' });
    expect(v.has('deviceTypes')).toBe(true);
    expect(visibleMenuCodes(new Set(['device', 'deviceTypes', 'device20020']), { projectType: 'PT2010' }).has('deviceTypes')).toBe(false);
  });
  it('canOpen checks code and project', () => {
    expect(canOpen('calorimeter', new Set(['calorimeter']), { projectType: 'PT4010' })).toBe(true);
    expect(canOpen('calorimeter', new Set(['calorimeter']), { projectType: 'PT1011' })).toBe(false);
    expect(canOpen('calorimeter', new Set(), { projectType: 'PT4010' })).toBe(false);
    expect(canOpen('no-such', new Set(['no-such']), {})).toBe(false);
  });
  it('device-type pages follow the per-project menu check (devicetypebyproject) on top of the project-type table', () => {
    const pages = MENUS.filter((m) => m.parent === 'deviceTypes').map((m) => m.code);
    const granted = new Set(['device', 'deviceTypes', ...pages, 'devicemonitor']);
    const held = ['device20020', 'device618_n', 'gateway'];
    const v = visibleMenuCodes(granted, { projectType: 'PT1011', deviceTypes: held });
    expect(pages.filter((c) => v.has(c)).sort()).toEqual(['device20020', 'device618_n']);
    expect(v.has('devicemonitor')).toBe(true); // not a device-type page
    // the project-type table still applies: a held type whose page the project type does not show stays hidden
    expect(visibleMenuCodes(granted, { projectType: 'PT2010', deviceTypes: ['device20020'] }).has('device20020')).toBe(false);
    // a project without any device type shows no device-type page and so no 设备类型监控 directory
    expect(visibleMenuCodes(granted, { projectType: 'PT1011', deviceTypes: [] }).has('deviceTypes')).toBe(false);
    expect(canOpen('device20000', granted, { projectType: 'PT1011', deviceTypes: held })).toBe(false);
    expect(canOpen('device618_n', granted, { projectType: 'PT1011', deviceTypes: held })).toBe(true);
  });
  it('items without rules do not depend on the project', () => {
    expect(menuFitsProject(MENU_BY_CODE.get('devicemonitor')!, {})).toBe(true);
  });
});

describe('menu tree (spec §2.5)', () => {
  it('has every route group and every screen under its group path', () => {
    for (const g of ['project', 'device', 'businesscenter', 'datacenter', 'baseManager', 'system_n', 'departmentEnergy', 'monitorManager', 'businessSys']) {
      expect(MENU_BY_CODE.get(g)?.type).toBe('dirt');
    }
    for (const m of MENUS.filter((x) => x.type === 'menu')) {
      expect(m.path).toBe(`/${m.group}/${m.code}`);
      expect(m.title).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect(new Set(MENUS.map((m) => m.code)).size).toBe(MENUS.length);
    expect(MENUS.filter((m) => m.hidden).map((m) => m.code).sort()).toEqual(['addDevicePlan_n', 'refundTable', 'refundTable_n', 'temperatureMap_n']);
    expect(MENU_BY_CODE.get('devicepage')?.param).toBe(':projectId?');
  });
});

describe('mobile route parameter (spec §2.2)', () => {
  it('is the project id divided by 1.7891 and maps back', () => {
    expect(mobileProjectParam(17891)).toBeCloseTo(10000, 9);
    for (const id of [1, 2, 35, 999, 123456]) expect(projectIdFromMobileParam(mobileProjectParam(id))).toBe(id);
  });
});

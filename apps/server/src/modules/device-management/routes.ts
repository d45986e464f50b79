import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  DEVICE_TYPES, IMPORT_MAX_BYTES, backUpBody, batchParaBody, bindRecordQuery, cardListQuery, create4gBody, deviceActiveBody, deviceCardBody,
  deviceCodeSchema, deviceCreateBody, deviceCreateParams, deviceDeleteBody, deviceIdParam, deviceImportQuery, deviceMoveBody, deviceMoveParams,
  deviceUpdateBody, groupBody, groupDevicesQuery, groupIdParam, groupListQuery, groupMembersBody, groupPatchBody, list4gQuery, replaceQuery,
  storageAddBody, storageAllQuery, storageQuery, storageRenameBody, update4gBody, decimal, deviceBindBody, deviceBindParams, deviceBindQuery,
} from '@kelvin/contracts';
import { invalid, ok } from '../../lib/errors.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { allPages, readRows } from '../imports/index.ts';
import { IMPORT_MODELS } from '../imports/index.ts';
import { uploadedFile } from '../imports/index.ts';
import { batchWrite } from './batch.ts';
import type { DeviceCardService } from './cards.ts';
import { importDevices } from './device-import.ts';
import type { DeviceGroupService } from './groups.ts';
import { CELLULAR_TYPES, type DeviceManagementService } from './service.ts';

export interface DeviceManagementDeps {
  admin: DeviceManagementService;
  groups: DeviceGroupService;
  cards: DeviceCardService;
  core: DeviceCore;
  projects: ProjectService;
}

/** Device management under /api/v1/device/ (spec §7.3, §7.4). */
export async function deviceManagementRoutes(app: FastifyInstance, deps: DeviceManagementDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin, groups, cards } = deps;
  const tags = ['设备管理'];
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  /* ---------- deviceList_n ---------- */

  r.post('/api/v1/device/create/:projectId/:areaId/:deviceType', {
    schema: { tags, summary: '新建设备（编号在本项目库存中时为安装）；返回一次性接入密钥', params: deviceCreateParams, body: deviceCreateBody.omit({ deviceType: true, areaId: true }) },
    config: { access: 'deviceList_n:btn_add', operation: '新建设备' },
  }, async (req) => ok(await admin.create(actorOf(req), { ...req.params, ...req.body }), '新建成功'));

  r.put('/api/v1/device/updatedevice/:id', {
    schema: { tags, summary: '修改设备（名称、区域、网关、启用）', params: deviceIdParam, body: deviceUpdateBody },
    config: { access: 'deviceList_n:btn_edit', operation: '修改设备' },
  }, async (req) => ok(await admin.update(actorOf(req), req.params.id, req.body), '修改成功'));

  r.put('/api/v1/device/updatearea/:deviceId/:areaId', {
    schema: { tags, summary: '移动设备到本项目的另一个区域', params: deviceMoveParams },
    config: { access: 'deviceList_n:btn_edit', operation: '移动设备' },
  }, async (req) => ok(await admin.move(actorOf(req), [req.params.deviceId], req.params.areaId), '移动成功'));

  r.post('/api/v1/device/updatearea', {
    schema: { tags, summary: '批量移动设备（全部成功或全部不动）', body: deviceMoveBody },
    config: { access: 'deviceList_n:btn_edit', operation: '批量移动设备' },
  }, async (req) => ok(await admin.move(actorOf(req), req.body.deviceIds, req.body.areaId), '移动成功'));

  r.post('/api/v1/device/active', {
    schema: { tags, summary: '启用或停用设备（停用的设备不能接入）', body: deviceActiveBody },
    config: { access: 'deviceList_n:btn_edit', operation: '启用/停用设备' },
  }, async (req) => ok(await admin.setEnabled(actorOf(req), req.body.ids, req.body.enabled), req.body.enabled ? '已启用' : '已停用'));

  r.post('/api/v1/device/deletedevice', {
    schema: { tags, summary: '删除设备（id、ids 或 deviceCode；历史数据保留）', body: deviceDeleteBody },
    config: { access: 'deviceList_n:btn_del', operation: '删除设备' },
  }, async (req) => {
    const a = actorOf(req);
    const ids = [...(req.body.ids ?? []), ...(req.body.id ? [req.body.id] : [])];
    if (req.body.deviceCode) ids.push((await admin.deviceByCode(a.scope, req.body.deviceCode)).id);
    return ok(await admin.remove(a, ids), '删除成功');
  });

  /* ---------- 4G devices ---------- */

  r.get('/api/v1/device/getDeviceListFor4G', {
    schema: { tags, summary: '4G 设备列表（区域及其下级；含物联网卡）', querystring: list4gQuery },
    config: { access: 'deviceList_n' },
  }, async (req) => ok(await admin.list4g(actorOf(req).scope, req.query)));

  r.get('/api/v1/device/getAllDeviceTypeFor4G', {
    schema: { tags, summary: '4G 设备类型（tid 为项目编号时只列该项目类型使用的）', querystring: z.object({ tid: decimal(z.number().int()).optional() }) },
    config: { access: 'login' },
  }, async (req) => {
    let types = DEVICE_TYPES.filter((t) => CELLULAR_TYPES.includes(t.code));
    if (req.query.tid && req.query.tid > 0) {
      const p = await deps.projects.project(actorOf(req).scope, req.query.tid);
      types = types.filter((t) => t.projectTypes.includes(p.project_type ?? ''));
    }
    return ok(types.map((t) => ({ code: t.code, name: t.name, category: t.category })));
  });

  r.post('/api/v1/device/createDeviceFor4G', {
    schema: { tags, summary: '新建 4G 设备（可同时登记物联网卡）', body: create4gBody },
    config: { access: 'deviceList_n:btn_add', operation: '新建 4G 设备' },
  }, async (req) => {
    const a = actorOf(req);
    const b = req.body;
    if (!CELLULAR_TYPES.includes(b.deviceType)) throw invalid('所选类型不是 4G 设备', ['deviceType']);
    const project = await deps.projects.projectOf(a.scope, b.areaId);
    if (b.card) await cards.check(project.tenant_id, b.deviceCode, b.card.iccid);
    const made = await admin.create(a, { projectId: project.id, areaId: b.areaId, deviceType: b.deviceType, deviceCode: b.deviceCode, deviceName: b.deviceName });
    if (b.card) await cards.save(a.scope, { ...b.card, deviceCode: b.deviceCode });
    return ok(made, '新建成功');
  });

  r.post('/api/v1/device/updateDeviceFor4G', {
    schema: { tags, summary: '修改 4G 设备（名称、区域、物联网卡；card 为 null 时解绑卡）', body: update4gBody },
    config: { access: 'deviceList_n:btn_edit', operation: '修改 4G 设备' },
  }, async (req) => {
    const a = actorOf(req);
    const row = await admin.device(a.scope, req.body.id);
    if (req.body.card) await cards.check(row.tenant_id, row.device_code, req.body.card.iccid);
    const device = await admin.update(a, row.id, { deviceName: req.body.deviceName, areaId: req.body.areaId });
    if (req.body.card) await cards.save(a.scope, { ...req.body.card, deviceCode: row.device_code });
    if (req.body.card === null) await cards.remove(a.scope, row.device_code);
    return ok(device, '修改成功');
  });

  r.post('/api/v1/device/backUpDevice', {
    schema: { tags, summary: '设备转入项目库存（备用）', body: backUpBody },
    config: { access: 'deviceList_n:btn_edit', operation: '设备转入库存' },
  }, async (req) => ok(await admin.backUp(actorOf(req), req.body.id), '已转入库存'));

  r.post('/api/v1/device/replaceDevice', {
    schema: { tags, summary: '更换设备：新设备接替旧设备的房间、历史与账户，并记录绑定变更', querystring: replaceQuery },
    config: { access: 'deviceList_n:btn_edit', operation: '更换设备' },
  }, async (req) => ok(await admin.replace(actorOf(req), req.query.oldDeviceCode, req.query.newDeviceCode), '更换成功'));

  /* ---------- device storage (spec §7.4) ---------- */

  r.get('/api/v1/deviceStorage/getProjectDeviceStorage', {
    schema: { tags, summary: '项目库存设备（未安装）', querystring: storageQuery },
    config: { access: 'deviceList_n' },
  }, async (req) => ok(await admin.storage(actorOf(req).scope, req.query, false)));

  r.get('/api/v1/deviceStorage/getProjectAllDeviceStorage', {
    schema: { tags, summary: '项目全部设备及物联网卡套餐（packageLimitDays：套餐在该天数内到期）', querystring: storageAllQuery },
    config: { access: 'deviceList_n' },
  }, async (req) => ok(await admin.storage(actorOf(req).scope, req.query, true)));

  r.get('/api/v1/deviceStorage/projectAllDeviceStorageExport', {
    schema: { tags, summary: '导出项目设备与套餐', querystring: storageAllQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'deviceList_n:export' },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const p = await deps.projects.project(s, req.query.projectId);
    const rows = allPages((pageNo, pageSize) => admin.storage(s, { ...req.query, pageNo, pageSize }, true));
    return streamXlsx(reply, `${p.name}-设备库存.xlsx`, '设备库存', [
      { header: '设备编号', width: 22, value: (d) => d.deviceCode },
      { header: '设备名称', width: 24, value: (d) => d.deviceName },
      { header: '设备类型', width: 20, value: (d) => d.typeName },
      { header: '状态', value: (d) => (d.inStorage ? '库存' : '已安装') },
      { header: '位置', width: 24, value: (d) => d.areaPath || null },
      { header: 'ICCID', width: 24, value: (d) => d.card?.iccid },
      { header: '运营商', value: (d) => d.card?.carrier },
      { header: '套餐到期', width: 14, value: (d) => (d.card?.packageEnd ? cstTime(d.card.packageEnd).slice(0, 10) : null) },
      { header: '剩余天数', value: (d) => d.card?.packageDaysLeft },
    ], rows);
  });

  r.post('/api/v1/deviceStorage/updateDeviceStorageName', {
    schema: { tags, summary: '修改库存设备名称', body: storageRenameBody },
    config: { access: 'deviceList_n:btn_edit', operation: '修改库存设备名称' },
  }, async (req) => ok(await admin.rename(actorOf(req).scope, req.body.id, req.body.deviceName), '修改成功'));

  r.post('/api/v1/deviceStorage/add', {
    schema: { tags, summary: '登记设备到项目库存；返回一次性接入密钥', body: storageAddBody },
    config: { access: 'deviceList_n:btn_add', operation: '登记库存设备' },
  }, async (req) => ok(await admin.addToStorage(actorOf(req), req.body), '已入库'));

  /* ---------- device groups ---------- */

  r.get('/api/v1/device/group/list', {
    schema: { tags, summary: '设备分组', querystring: groupListQuery },
    config: { access: 'devicegroup' },
  }, async (req) => ok(await groups.list(actorOf(req).scope, req.query.projectId)));

  r.post('/api/v1/device/group/create', {
    schema: { tags, summary: '新建设备分组', body: groupBody },
    config: { access: 'devicegroup:btn_add', operation: '新建设备分组' },
  }, async (req) => ok(await groups.create(actorOf(req).scope, req.body), '新建成功'));

  r.put('/api/v1/device/group/:id', {
    schema: { tags, summary: '修改设备分组', params: groupIdParam, body: groupPatchBody },
    config: { access: 'devicegroup:btn_edit', operation: '修改设备分组' },
  }, async (req) => ok(await groups.update(actorOf(req).scope, req.params.id, req.body), '修改成功'));

  r.post('/api/v1/device/group/delete/:id', {
    schema: { tags, summary: '删除设备分组（设备不受影响）', params: groupIdParam },
    config: { access: 'devicegroup:btn_del', operation: '删除设备分组' },
  }, async (req) => {
    await groups.remove(actorOf(req).scope, req.params.id);
    return ok(null, '删除成功');
  });

  r.post('/api/v1/device/group/members/:id', {
    schema: { tags, summary: '分组增删设备', params: groupIdParam, body: groupMembersBody },
    config: { access: 'devicegroup:btn_edit', operation: '分组增删设备' },
  }, async (req) => ok(await groups.members(actorOf(req).scope, req.params.id, req.body), '保存成功'));

  r.get('/api/v1/device/group/groupDeviceListByType/:id', {
    schema: { tags, summary: '分组内的设备（可按类型）', params: groupIdParam, querystring: groupDevicesQuery },
    config: { access: 'devicegroup' },
  }, async (req) => ok(await groups.devicesOf(actorOf(req).scope, req.params.id, req.query)));

  /* ---------- batchpara ---------- */

  r.post('/api/v1/device/batchpara', {
    schema: { tags, summary: '批量写入一个参数：逐台返回结果（已下发 / 等待上线 / 失败及原因）', body: batchParaBody },
    config: { access: 'batchpara:control', operation: '批量参数设置' },
  }, async (req) => {
    const answer = await batchWrite(deps.core, actorOf(req), req.body);
    return ok(answer, `共 ${answer.total} 台：已下发 ${answer.sent}，等待上线 ${answer.queued}，失败 ${answer.failed}`);
  });

  /* ---------- SIM cards (deviceCardInfoList) ---------- */

  r.get('/api/v1/device/card/list', {
    schema: { tags, summary: '物联网卡（项目的 4G 设备及其卡）', querystring: cardListQuery },
    config: { access: 'deviceCardInfoList' },
  }, async (req) => ok(await cards.list(actorOf(req).scope, req.query)));

  r.get('/api/v1/device/card/export', {
    schema: { tags, summary: '导出物联网卡（同列表筛选）', querystring: cardListQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'deviceCardInfoList:export' },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const p = await deps.projects.project(s, req.query.projectId);
    const rows = allPages((pageNo, pageSize) => cards.list(s, { ...req.query, pageNo, pageSize }));
    const day = (ms: number | null | undefined) => (ms ? cstTime(ms).slice(0, 10) : null);
    return streamXlsx(reply, `${p.name}-物联网卡.xlsx`, '物联网卡', [
      { header: '设备编号', width: 22, value: (d) => d.deviceCode },
      { header: '设备名称', width: 24, value: (d) => d.deviceName },
      { header: '设备类型', width: 20, value: (d) => d.typeName },
      { header: '位置', width: 24, value: (d) => d.areaPath || (d.areaId === null ? '库存' : null) },
      { header: 'ICCID', width: 24, value: (d) => d.card?.iccid },
      { header: '运营商', value: (d) => d.card?.carrier },
      { header: '激活日期', width: 14, value: (d) => day(d.card?.activatedAt) },
      { header: '套餐到期', width: 14, value: (d) => day(d.card?.packageEnd) },
      { header: '剩余天数', value: (d) => d.card?.packageDaysLeft },
      { header: '套餐流量(MB)', width: 14, value: (d) => d.card?.dataLimitMb },
      { header: '已用流量(MB)', width: 14, value: (d) => d.card?.dataUsedMb },
    ], rows);
  });

  r.post('/api/v1/device/card/save', {
    schema: { tags, summary: '登记或修改设备的物联网卡', body: deviceCardBody },
    config: { access: 'deviceCardInfoList:btn_edit', operation: '保存物联网卡' },
  }, async (req) => ok(await cards.save(actorOf(req).scope, req.body), '保存成功'));

  r.post('/api/v1/device/card/delete', {
    schema: { tags, summary: '解绑设备的物联网卡', body: z.object({ deviceCode: deviceCodeSchema }) },
    config: { access: 'deviceCardInfoList:btn_del', operation: '解绑物联网卡' },
  }, async (req) => {
    await cards.remove(actorOf(req).scope, req.body.deviceCode);
    return ok(null, '已解绑');
  });

  /* ---------- bind records and imports ---------- */

  r.get('/api/v1/device/bindrecord', {
    schema: { tags, summary: '设备绑定记录（安装、移动、入库、更换、删除、导入）', querystring: bindRecordQuery },
    // 设备绑定管理 shows one device's history in a drawer
    config: { access: ['deviceBindRecord', 'deviceBindManager'] },
  }, async (req) => ok(await admin.bindRecords(actorOf(req).scope, req.query)));

  /* ---------- 设备绑定管理 (deviceBindManager) ---------- */

  r.get('/api/v1/device/bind/list', {
    schema: { tags, summary: '设备绑定管理：项目设备及其所在房间（已绑定 / 未绑定）', querystring: deviceBindQuery },
    config: { access: 'deviceBindManager' },
  }, async (req) => ok(await admin.bindList(actorOf(req).scope, req.query)));

  r.post('/api/v1/device/bind/:deviceId', {
    schema: { tags, summary: '绑定设备到房间（或改绑；写入绑定记录）', params: deviceBindParams, body: deviceBindBody },
    config: { access: 'deviceBindManager:btn_edit', operation: '绑定设备' },
  }, async (req) => ok(await admin.bind(actorOf(req), req.params.deviceId, req.body.areaId), '绑定成功'));

  r.post('/api/v1/device/unbind/:deviceId', {
    schema: { tags, summary: '解绑设备（转入项目库存；写入绑定记录）', params: deviceBindParams },
    config: { access: 'deviceBindManager:btn_edit', operation: '解绑设备' },
  }, async (req) => ok(await admin.unbind(actorOf(req), req.params.deviceId), '已解绑'));

  for (const [path, kind, operation] of [['deviceimport', 'areaDevice', '导入设备'], ['gatewayimport', 'gateway', '导入网关']] as const) {
    r.post(`/api/v1/device/${path}`, {
      schema: { tags, summary: `${operation}（Excel；逐行校验，有错则整份不导入；返回一次性接入密钥）`, querystring: deviceImportQuery },
      config: { access: 'deviceList_n:btn_add', operation },
    }, async (req) => {
      const a = actorOf(req);
      await deps.projects.project(a.scope, req.query.projectId);
      const rows = await readRows(await uploadedFile(req), IMPORT_MODELS[kind]);
      const result = await importDevices({ db: app.db, projects: deps.projects, devices: deps.core.devices }, a, req.query.projectId, kind, rows);
      return ok(result, `导入成功：${result.created} 台设备`);
    });
  }
}

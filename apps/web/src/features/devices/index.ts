/**
 * The devices feature's public entry: other features read device data only through these. Kept to the data layer
 * (no contracts values, so no zod) because the light screens such as 项目视图 import it.
 */
export {
  commandEvents, deviceApi, deviceKeys, useDeviceDetail, useDeviceTypes, useLiveDevices,
  type AreaDevices, type CommandAnswer, type ProjectDeviceType,
} from './api';

/** The devices feature's public entry: other features use device data and controls only through these. */
export {
  commandEvents, deviceApi, deviceKeys, useDeviceDetail, useDeviceTypes, useLiveDevices,
  type AreaDevices, type CommandAnswer, type ProjectDeviceType,
} from './api';
export { FieldInput, checkFieldValue } from './components/field-input';
export { CommandStatusTag } from './components/device-bits';
export { withStatus } from './components/issued-commands';

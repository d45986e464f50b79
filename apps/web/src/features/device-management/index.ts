/** The device-management feature's public entry. */
export { QrButton } from './components/qr-button';
export { dmApi, dmKeys } from './api';
export { DevicePicker } from './components/device-picker';
export { AreaPicker, CredentialsView } from './components/device-placement';

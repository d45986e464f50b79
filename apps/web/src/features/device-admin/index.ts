/** The device-admin feature's public entry. */
export { CredentialsView } from './components';

export { VERSION } from '@kelvin/contracts/version';

/** What other features may use of the data dictionary: the tenant's display names over the registries' labels. */
export { dictKeys, useDictLabels } from './api';
export { dictLabel } from '@kelvin/contracts';

/** The product version constant (spec §9): the user dropdown, the API document, the health and service-status answers. */
export const VERSION = '0057';

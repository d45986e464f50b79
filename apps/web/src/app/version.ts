/** The product version constant (spec §9), shown in the user dropdown. */
export const VERSION = '0057';

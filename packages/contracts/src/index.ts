export * from './common.ts';
export * from './auth.ts';
export * from './area.ts';
export * from './menus.ts';
export * from './access.ts';

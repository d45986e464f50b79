/** Areas and projects (regions, projects, buildings, floors, rooms), their files and the area tree. */
export { createProjectService, type AreaHolding, type PlannedArea, type ProjectService, type TreeImportPlan } from './service.ts';
export { cleanFileName, createProjectFileService, storeUpload, type ProjectFileService } from './files.ts';
export { projectRoutes } from './routes.ts';
export type { AreaRow } from './repository.ts';

/** Excel templates, imports (all or nothing) and the area export; the Excel reading pieces other imports reuse. */
export { createImportService, type ImportService } from './service.ts';
export { importRoutes, uploadedFile } from './routes.ts';
export { IMPORT_MODELS, importColumn } from './models.ts';
export { RowErrors, allPages, buildTemplate, readRows, type SheetRow } from './excel-io.ts';

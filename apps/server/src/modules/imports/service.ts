import { DEVICE_TYPES, IMPORT_MODEL_TYPES, PROJECT_TYPES, type ImportModel, type ImportModelType } from '@kelvin/contracts';
import type { Scope } from '../../lib/scope.ts';
import type { ProjectService } from '../projects/index.ts';
import { buildTemplate, readRows } from './excel-io.ts';
import { exportAreaTree, type AreaExportSheet } from './export-area.ts';
import { IMPORT_MODELS, IMPORT_MODEL_LISTS } from './models.ts';
import { importProjectTree } from './project-import.ts';

/** Excel templates, the project tree import and the area export (spec §7.2). */
export function createImportService(projects: ProjectService) {
  const exportSheets: AreaExportSheet[] = [];

  /** Allowed values offered as dropdowns in a template. */
  function choicesOf(modelType: ImportModelType): Record<string, string[]> {
    if (modelType === 'project') return { projectType: PROJECT_TYPES.map((t) => t.code) };
    if (modelType === 'gateway') return { deviceType: DEVICE_TYPES.filter((t) => t.category === 'gateway' || t.category === 'manager').map((t) => t.code) };
    if (modelType === 'areaDevice') return { deviceType: DEVICE_TYPES.filter((t) => t.category !== 'gateway' && t.category !== 'manager').map((t) => t.code) };
    return {};
  }

  return {
    models(list: string): ImportModel[] {
      return (IMPORT_MODEL_LISTS[list] ?? []).map((t) => IMPORT_MODELS[t]);
    },
    allModels(): ImportModel[] {
      return IMPORT_MODEL_TYPES.map((t) => IMPORT_MODELS[t]);
    },
    async template(modelType: ImportModelType) {
      const model = IMPORT_MODELS[modelType];
      return { fileName: `${model.name}.xlsx`, buffer: await buildTemplate(model, choicesOf(modelType)) };
    },
    async importProjects(scope: Scope, file: Buffer) {
      return importProjectTree(projects, scope, await readRows(file, IMPORT_MODELS.project));
    },
    exportArea(scope: Scope, areaId: number) {
      return exportAreaTree(projects, scope, areaId, exportSheets);
    },
    /** The device domain adds a sheet of the exported areas' devices. */
    registerExportSheet(sheet: AreaExportSheet) {
      exportSheets.push(sheet);
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { ProjectFile } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { scoped, type Scope } from '../../lib/scope.ts';
import type { ProjectService } from './service.ts';

type FileRow = { id: number; tenant_id: number; project_id: number; name: string; stored_name: string; size: number; mime: string; uploaded_by: string | null; created_at: number };

const toFile = (r: FileRow): ProjectFile => ({
  id: r.id, projectId: r.project_id, name: r.name, size: r.size, mime: r.mime, uploadedBy: r.uploaded_by, createdAt: r.created_at,
});

/** A client file name reduced to its last segment without control characters (it is shown, never used as a path). */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base.slice(-255);
}

/**
 * Streams an upload into `root/<tenant>/<a new random name>` (project files, repair photos). A file the multipart limit
 * cut short is removed and refused with `tooLarge`; otherwise the caller gets its stored name, path and size, and
 * `discard` for a refusal of its own or a failed insert.
 */
export async function storeUpload(root: string, tenantId: number, upload: { file: Readable; truncated(): boolean }, tooLarge: string) {
  const storedName = crypto.randomUUID();
  const target = path.join(root, String(tenantId), storedName);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await pipeline(upload.file, fs.createWriteStream(target));
  const discard = () => fs.rmSync(target, { force: true });
  if (upload.truncated()) {
    discard();
    throw invalid(tooLarge, ['file']);
  }
  return { storedName, target, size: fs.statSync(target).size, discard };
}

/** Project files (spec §7.5): stored under the data dir by a random name; every call checks the project's visibility. */
export function createProjectFileService(db: Db, projects: ProjectService, dataDir: string) {
  const root = path.join(dataDir, 'uploads', 'project-files');
  const storedPath = (r: Pick<FileRow, 'tenant_id' | 'stored_name'>) => path.join(root, String(r.tenant_id), r.stored_name);

  async function file(scope: Scope, fileId: number): Promise<FileRow> {
    const row = await scoped(db.selectFrom('project_file').selectAll().where('id', '=', fileId), scope).executeTakeFirst();
    if (!row) throw notFound('文件');
    await projects.project(scope, row.project_id).catch(() => {
      throw notFound('文件');
    });
    return row;
  }

  projects.registerHolding({
    what: '个项目文件',
    async count(areaId) {
      const row = await db.selectFrom('project_file').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', areaId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  });

  return {
    async list(scope: Scope, projectId: number): Promise<ProjectFile[]> {
      const p = await projects.project(scope, projectId);
      const rows = await db.selectFrom('project_file').selectAll().where('project_id', '=', p.id).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toFile);
    },

    /** Streams the upload to disk; `truncated()` tells whether the size limit cut it. */
    async save(scope: Scope, projectId: number, upload: { filename: string; mimetype: string; file: Readable; truncated(): boolean }, uploadedBy: string): Promise<ProjectFile> {
      const p = await projects.project(scope, projectId);
      const name = cleanFileName(upload.filename);
      if (!name) {
        upload.file.resume();
        throw invalid('文件名不能为空', ['file']);
      }
      const { storedName, size, discard } = await storeUpload(root, p.tenant_id, upload, '文件超过 20 MB，未保存');
      if (size === 0) {
        discard();
        throw invalid('文件是空的', ['file']);
      }
      try {
        const row = await db.insertInto('project_file').values({
          tenant_id: p.tenant_id, project_id: p.id, name, stored_name: storedName, size,
          mime: (upload.mimetype || 'application/octet-stream').slice(0, 100), uploaded_by: uploadedBy, created_at: Date.now(),
        }).returningAll().executeTakeFirstOrThrow();
        return toFile(row);
      } catch (err) {
        discard();
        throw err;
      }
    },

    async remove(scope: Scope, fileId: number) {
      const row = await file(scope, fileId);
      await db.deleteFrom('project_file').where('id', '=', row.id).execute();
      fs.rmSync(storedPath(row), { force: true });
    },

    async open(scope: Scope, fileId: number) {
      const row = await file(scope, fileId);
      const p = storedPath(row);
      if (!fs.existsSync(p)) throw notFound('文件内容');
      return { name: row.name, size: row.size, stream: fs.createReadStream(p) };
    },
  };
}

export type ProjectFileService = ReturnType<typeof createProjectFileService>;

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { idParam } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { Actor } from './actor.ts';

export interface Crud<C, U, Q> {
  page(actor: Actor, q: Q): Promise<unknown>;
  get(actor: Actor, id: number): Promise<unknown>;
  create(actor: Actor, body: C): Promise<unknown>;
  update(actor: Actor, id: number, body: U): Promise<unknown>;
  remove(actor: Actor, id: number): Promise<void>;
}

export interface CrudSpec<C, U, Q> {
  /** e.g. `/api/admin/user` */
  base: string;
  /** menu code whose elements guard the routes: view, btn_add, btn_edit, btn_del */
  menu: string;
  /** Chinese name of the entity for summaries, the gate log and messages */
  label: string;
  tag: string;
  schemas: { create: z.ZodType<C>; update: z.ZodType<U>; query: z.ZodType<Q> };
  service: Crud<C, U, Q>;
}

/** The AG-Admin entity shape: POST create, GET/PUT/DELETE `/{id}`, GET `/page` → `{ total, rows }`. */
export function registerCrud<C, U, Q>(app: FastifyInstance, spec: CrudSpec<C, U, Q>) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { base, menu, label, service, schemas } = spec;
  const tags = [spec.tag];
  r.get(`${base}/page`, {
    schema: { tags, summary: `${label}列表（分页）`, querystring: schemas.query },
    config: { access: `${menu}:view` },
  }, async (req) => ok(await service.page(actorOf(req), req.query as Q)));
  r.post(base, {
    schema: { tags, summary: `新建${label}`, body: schemas.create },
    config: { access: `${menu}:btn_add`, operation: `新建${label}` },
  }, async (req) => ok(await service.create(actorOf(req), req.body as C), '新建成功'));
  r.get(`${base}/:id`, {
    schema: { tags, summary: `${label}详情`, params: idParam },
    config: { access: `${menu}:view` },
  }, async (req) => ok(await service.get(actorOf(req), req.params.id)));
  r.put(`${base}/:id`, {
    schema: { tags, summary: `修改${label}`, params: idParam, body: schemas.update },
    config: { access: `${menu}:btn_edit`, operation: `修改${label}` },
  }, async (req) => ok(await service.update(actorOf(req), req.params.id, req.body as U), '修改成功'));
  r.delete(`${base}/:id`, {
    schema: { tags, summary: `删除${label}`, params: idParam },
    config: { access: `${menu}:btn_del`, operation: `删除${label}` },
  }, async (req) => {
    await service.remove(actorOf(req), req.params.id);
    return ok(null, '删除成功');
  });
}

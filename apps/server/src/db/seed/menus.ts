import { MENUS, elementCodes } from '@kelvin/contracts';
import type { Db } from '../index.ts';

export const ELEMENT_NAMES: Record<string, string> = {
  view: '查看',
  btn_add: '新增',
  btn_edit: '编辑',
  btn_del: '删除',
  export: '导出',
  control: '控制',
  topup: '充值',
  refund: '退费',
  refund_approve: '退费审批',
  deposit: '押金收退',
  settle: '退户结算',
  reconcile: '核对账目',
  idnumber: '查看完整证件号',
};

/** Inserts menus and elements that the code base defines and the database lacks; edits made in the console are kept. */
export async function syncMenus(db: Db): Promise<void> {
  const have = new Set((await db.selectFrom('menu').select('code').execute()).map((r) => r.code));
  const haveEl = new Set((await db.selectFrom('menu_element').select('code').execute()).map((r) => r.code));
  const menus = MENUS.filter((m) => !have.has(m.code)).map((m) => ({
    code: m.code,
    title: m.title,
    icon: m.icon ?? null,
    parent_code: m.parent,
    type: m.type,
    path: m.path,
    href: m.href ?? null,
    order_no: m.order,
    hidden: m.hidden ? 1 : 0,
    builtin: 1,
  }));
  const elements = MENUS.flatMap((m) =>
    elementCodes(m)
      .filter((code) => !haveEl.has(code))
      .map((code) => {
        const kind = code.slice(m.code.length + 1);
        return { menu_code: m.code, code, kind, name: `${m.title}${ELEMENT_NAMES[kind] ?? kind}`, uri: null, method: null };
      }),
  );
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < menus.length; i += 200) await trx.insertInto('menu').values(menus.slice(i, i + 200)).execute();
    for (let i = 0; i < elements.length; i += 200) await trx.insertInto('menu_element').values(elements.slice(i, i + 200)).execute();
  });
}

import type { Rule } from 'antd/es/form';
import type { ZodType } from 'zod';

/**
 * An antd Form rule from a zod schema of packages/contracts, so the client validates with the same schema (and the
 * same Chinese messages) as the server.
 */
export function zodRule(schema: ZodType): Rule {
  return {
    validator: async (_rule, value) => {
      const r = schema.safeParse(value === '' ? undefined : value);
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? '格式不正确');
    },
  };
}

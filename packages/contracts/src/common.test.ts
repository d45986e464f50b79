import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decimal, pageQuery, parseDecimal } from './common.ts';

describe('decimal(): the one number reader of the contracts', () => {
  const id = decimal(z.number({ error: '编号必须是数字' }).int().positive());

  it('reads plain decimal text and numbers', () => {
    expect(id.parse('25')).toBe(25);
    expect(id.parse(25)).toBe(25);
    expect(parseDecimal('-3.25')).toBe(-3.25);
    expect(pageQuery.parse({ pageNo: '2', pageSize: '50' })).toEqual({ pageNo: 2, pageSize: 50 });
  });

  it('refuses hex, exponents, blanks, signs and non-finite numbers with the schema\'s own message', () => {
    for (const v of ['0x19', '2.5e1', ' 25', '25 ', '+25', '0b11', 'NaN', 'Infinity', '1e309', true, null, [25], Infinity]) {
      const r = id.safeParse(v);
      expect(r.success, String(v)).toBe(false);
    }
    expect(id.safeParse('0x19').error?.issues[0].message).toBe('编号必须是数字');
  });
});

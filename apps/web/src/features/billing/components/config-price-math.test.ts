import { describe, expect, it } from 'vitest';
import { addPrices } from './config-price-math';

describe('price sums on the digits', () => {
  it('adds without binary float drift', () => {
    expect(addPrices('0.5283', '0.05')).toBe('0.5783');
    expect(addPrices('0.1', '0.2')).toBe('0.3000');
    expect(addPrices('0', '0')).toBe('0.0000');
    expect(addPrices('1234567.9999', '0.0001')).toBe('1234568.0000');
  });
  it('refuses what is not a price', () => {
    expect(addPrices('', '1')).toBeNull();
    expect(addPrices('1.23456', '1')).toBeNull();
    expect(addPrices('-1', '1')).toBeNull();
  });
});

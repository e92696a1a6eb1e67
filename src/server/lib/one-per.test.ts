import { describe, expect, it } from 'vitest';
import { onePer } from './one-per.ts';

describe('onePer', () => {
  it('makes one value per owner, at its first use', () => {
    let made = 0;
    const counterOf = onePer((_owner: object) => ({ n: (made += 1) }));
    const a = {};
    const b = {};
    expect(counterOf(a)).toBe(counterOf(a));
    expect(counterOf(b)).not.toBe(counterOf(a));
    expect(made).toBe(2);
  });
});

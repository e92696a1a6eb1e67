import { parse } from '@formatjs/icu-messageformat-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Catalog, type MessageId, Messages } from './messages.ts';

const id = (name: string) => name as MessageId;

describe('Messages', () => {
  const written: Catalog = {
    plain: 'Join Now',
    quoted: "It's '{'{name}'}'",
    count: '{count, plural, one {# vote} other {# votes}}',
    tagged: 'Read the <b>notice</b>',
  };

  it('formats written and compiled messages alike, text-only ones included', () => {
    const compiled: Catalog = Object.fromEntries(
      Object.entries(written).map(([key, message]) => [key, parse(message as string)]),
    );
    for (const catalog of [written, compiled]) {
      const messages = new Messages('fr', catalog);
      expect(messages.format(id('plain'))).toBe('Join Now');
      expect(messages.format(id('quoted'), { name: 'Ada' })).toBe("It's {Ada}");
      expect(messages.format(id('count'), { count: 1 })).toBe('1 vote');
      expect(messages.format(id('count'), { count: 12345 })).toBe(
        `${new Intl.NumberFormat('fr').format(12345)} votes`,
      );
      const strong = (chunks: unknown[]) => ({ strong: chunks.join('') });
      expect(messages.formatParts(id('tagged'), { b: strong })).toEqual([
        'Read the ',
        { strong: 'notice' },
      ]);
      expect(messages.formatParts(id('plain'), {})).toEqual(['Join Now']);
    }
  });

  it('shows the name of a message the catalog lacks, or whose values are missing', () => {
    const messages = new Messages('en', written);
    expect(messages.format(id('missing'))).toBe('missing');
    expect(messages.format(id('count'))).toBe('count');
  });

  it('plural rules and numbers follow the language', () => {
    const catalog: Catalog = { count: '{count, plural, one {# vote} other {# votes}}' };
    // 0 is singular in French, plural in English.
    expect(new Messages('fr', catalog).format(id('count'), { count: 0 })).toBe('0 vote');
    expect(new Messages('en', catalog).format(id('count'), { count: 0 })).toBe('0 votes');
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('makes beforehand the number format and plural rules its plurals then use', () => {
    const messages = new Messages('de', {
      count: '{count, plural, one {# Stimme} other {# Stimmen}}',
    });
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    const pluralRules = vi.spyOn(Intl, 'PluralRules');
    messages.warm();
    expect([numberFormat.mock.calls.length, pluralRules.mock.calls.length]).toEqual([1, 1]);
    expect(messages.format(id('count'), { count: 2 })).toBe('2 Stimmen');
    expect(messages.format(id('count'), { count: 1 })).toBe('1 Stimme');
    expect([numberFormat.mock.calls.length, pluralRules.mock.calls.length]).toEqual([1, 1]);
  });
});

import { describe, expect, it } from 'vitest';
import { csvCell } from './csv-cell.ts';

describe('csvCell', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])(
    'neutralises %j, which a spreadsheet would run as a formula',
    (text) => {
      expect(csvCell(text).replace(/^"|"$/g, '').startsWith(`'`)).toBe(true);
    },
  );

  it.each([
    ['a full-width equals sign', '＝HYPERLINK("http://evil")'],
    ['a full-width plus sign', '＋1'],
    ['a full-width hyphen-minus', '－1'],
    ['a full-width commercial at', '＠SUM(A1)'],
    ['a small equals sign', '\uFE66cmd'],
    ['a right-to-left override', '\u202E=1+1'],
    ['a left-to-right isolate', '\u2066@SUM(A1)'],
    ['a zero-width space', '\u200B=1'],
    ['a byte-order mark', '\uFEFF+1'],
    ['a soft hyphen', '\u00AD-1'],
    ['a right-to-left mark before plain text', '\u200Fhello'],
  ])('neutralises a cell that starts with %s', (_what, text) => {
    const cell = csvCell(text);
    expect(cell.startsWith(`'`) || cell.startsWith(`"'`)).toBe(true);
    expect(cell.replace(/^"'|^'|"$/g, '').replaceAll('""', '"')).toBe(text);
  });

  it('leaves plain text, numbers and booleans as they are', () => {
    expect(csvCell('Ada Lovelace')).toBe('Ada Lovelace');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('Say "hi", please')).toBe('"Say ""hi"", please"');
  });
});

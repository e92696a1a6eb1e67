import { describe, expect, it } from 'vitest';
import { xProfileUrl } from './x-profile.ts';

describe('xProfileUrl', () => {
  it('links a username that is a valid X handle, with or without its leading @', () => {
    expect(xProfileUrl('ada_lovelace')).toBe('https://x.com/ada_lovelace');
    expect(xProfileUrl('@Grace1906')).toBe('https://x.com/Grace1906');
    expect(xProfileUrl('a')).toBe('https://x.com/a');
    expect(xProfileUrl('abcdefghijklmno')).toBe('https://x.com/abcdefghijklmno');
    expect(xProfileUrl('  @linus  ')).toBe('https://x.com/linus');
  });

  it('answers undefined for free text that cannot be a handle', () => {
    for (const username of [
      'ada lovelace 🚀',
      'abcdefghijklmnop',
      '',
      '@',
      '@@ada',
      'ada-lovelace',
      'ada.lovelace',
      'josé',
      'ada/../admin',
      'ada?x=1',
    ]) {
      expect(xProfileUrl(username), username).toBeUndefined();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { FALLBACK_USERNAME, firstFreeUsername, usernameBase } from './speaker-username.ts';

describe('usernameBase', () => {
  it('makes lower-case ASCII words joined by hyphens', () => {
    expect(usernameBase('Ada Lovelace')).toBe('ada-lovelace');
    expect(usernameBase("  Zoë  O'Brien-Smith  ")).toBe('zoe-o-brien-smith');
    expect(usernameBase('José Ñúñez')).toBe('jose-nunez');
    expect(usernameBase('Jürgen Groß')).toBe('jurgen-gross');
    expect(usernameBase('Søren Łukasz Æbelø')).toBe('soren-lukasz-aebelo');
    expect(usernameBase('Dr. R2-D2 (droid)')).toBe('dr-r2-d2-droid');
  });

  it('spells Cyrillic and Greek names in ASCII', () => {
    expect(usernameBase('Мария Иванова')).toBe('mariya-ivanova');
    expect(usernameBase('Νίκος Παπαδόπουλος')).toBe('nikos-papadopoulos');
  });

  it('falls back to a usable name when nothing spells in ASCII', () => {
    expect(usernameBase('李小龍')).toBe(FALLBACK_USERNAME);
    expect(usernameBase('🎤🎤')).toBe(FALLBACK_USERNAME);
    expect(usernameBase('---')).toBe(FALLBACK_USERNAME);
  });

  it('cuts long names at 40 characters without a trailing hyphen', () => {
    const base = usernameBase('Alexandria Ocasio Cortez Wolfeschlegelsteinhausenbergerdorff');
    expect(base.length).toBeLessThanOrEqual(40);
    expect(base).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('firstFreeUsername', () => {
  it('takes the base, then the first free -2, -3...', () => {
    expect(firstFreeUsername('ada', [])).toBe('ada');
    expect(firstFreeUsername('ada', ['ada'])).toBe('ada-2');
    expect(firstFreeUsername('ada', ['ada', 'ada-2', 'ada-4'])).toBe('ada-3');
    expect(firstFreeUsername('ada', ['ada-2'])).toBe('ada');
  });
});

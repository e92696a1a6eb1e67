import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEXTS } from './constants.ts';
import { QA_TEXTS } from './qa-constants.ts';
import { cleanName } from './names.ts';
import { joinFormSchema, usernameSchema } from './schemas/common.ts';
import { questionCreateRequestSchema } from './schemas/question.ts';
import { settingsSchema } from './schemas/settings.ts';
import { speakerFieldsSchema, speakerLoginFormSchema } from './schemas/speaker.ts';
import { uploadMetadataSchema } from './schemas/upload.ts';

/** Characters that must never be left in a name: they print nothing, or reorder the text. */
const NEVER_KEPT =
  /\u034f|\u1160|\u17b4|\u17b5|[\u00ad\u061c\u115f\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufeff\uffa0\u{1d173}-\u{1d17a}]/u;

describe('cleanName', () => {
  it.each([
    ['Ada\u202Egnp.exe', 'Adagnp.exe'],
    ['\u2066Ada\u2069 \u2067Lovelace\u2069', 'Ada Lovelace'],
    ['\u202AA\u202Bd\u202Ca\u202D', 'Ada'],
    ['A\u200Bd\u200Ca\u200D\u200E\u200F\u2060\uFEFF', 'Ada'],
    ['Ada\u00AD\u180E\u2061\u2062\u2063\u2064', 'Ada'],
    ['\u3164\u115F\u1160\uFFA0\u2800', ''],
    ['\u202E', ''],
  ])('removes what prints nothing from %j', (name, clean) => {
    expect(cleanName(name)).toBe(clean);
  });

  it.each([
    ['a woman technologist, medium skin tone', '\u{1F469}\u{1F3FD}\u200D\u{1F4BB}'],
    ['a family', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'],
    ['a rainbow flag', '\u{1F3F3}\uFE0F\u200D\u{1F308}'],
    ['a heart on fire', '\u2764\uFE0F\u200D\u{1F525}'],
    ['a red heart', '\u2764\uFE0F'],
    ['a keycap', '1\uFE0F\u20E3'],
    ['a hash keycap and a double exclamation mark', '#\uFE0F\u20E3 \u203C\uFE0F'],
    ['a text-style umbrella', '\u2614\uFE0E'],
    ['the flag of Scotland', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'],
    ['a Japanese name with an ideographic variant', '\u845B\u{E0100}\u98FE'],
    ['a Mongolian letter with its variant', '\u1820\u180B'],
  ])('keeps %s whole', (_what, emoji) => {
    expect(cleanName(`Ada ${emoji}`)).toBe(`Ada ${emoji}`);
  });

  it.each([
    ['a ZWJ between letters', 'Ma\u200Dry', 'Mary'],
    ['a ZWJ after an emoji and before a letter', '\u{1F469}\u200Dx', '\u{1F469}x'],
    ['a ZWJ that starts the name', '\u200D\u{1F4BB}', '\u{1F4BB}'],
    ['a variation selector after a space', 'Ada \uFE0F', 'Ada '],
    ['a second variation selector', '\u2764\uFE0F\uFE0F', '\u2764\uFE0F'],
    ['tags that end no flag', '\u{1F3F4}\u{E0067}\u{E0062}', '\u{1F3F4}'],
    ['tags after anything but a black flag', 'A\u{E0067}\u{E007F}', 'A'],
  ])('drops %s', (_what, name, clean) => {
    expect(cleanName(name)).toBe(clean);
  });

  it('is idempotent, and leaves no bidi, zero-width or filler character', () => {
    const suspects = [
      ...Array.from('\u200B\u200C\u200D\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2060\u2066'),
      ...Array.from('\u2067\u2068\u2069\uFEFF\u00AD\u180E\u2061\u3164\u2800\uFE0E\uFE0F\u034F'),
      '\u{E0067}',
      '\u{E007F}',
      '\u{1F3F4}',
      '\u{1F469}',
      '\u2764',
      'a',
      ' ',
      '\u0627',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...suspects), { maxLength: 12 }), (parts) => {
        const clean = cleanName(parts.join(''));
        expect(cleanName(clean)).toBe(clean);
        expect(clean).not.toMatch(NEVER_KEPT);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (name) => {
        const clean = cleanName(name);
        expect(cleanName(clean)).toBe(clean);
        expect(clean).not.toMatch(NEVER_KEPT);
      }),
    );
  });
});

describe('every name field cleans its name before checking it', () => {
  it('stores names without their bidi and zero-width characters', () => {
    expect(usernameSchema.parse(' Ada\u202Egnp.exe ')).toBe('Adagnp.exe');
    expect(speakerFieldsSchema.shape.name.parse('Grace\u200B Hopper')).toBe('Grace Hopper');
    expect(settingsSchema.shape.eventName.parse('\u2067Conf\u2069 2026')).toBe('Conf 2026');
    expect(
      uploadMetadataSchema.parse({ filename: 'a.png', caption: 'x', username: 'b\u202Eob' })
        .username,
    ).toBe('bob');
  });

  it('refuses a name that is empty without them, with the text of an empty name', () => {
    const first = (result: { error?: { issues: { message: string }[] } | undefined }) =>
      result.error?.issues[0]?.message;
    expect(first(joinFormSchema.shape.username.safeParse('\u202E'))).toBe(TEXTS.joinEmptyUsername);
    expect(first(joinFormSchema.shape.username.safeParse('\u200B\u200D'))).toBe(
      TEXTS.joinEmptyUsername,
    );
    expect(first(usernameSchema.safeParse('\u202E'))).toBe('Username is required');
    expect(first(questionCreateRequestSchema.shape.askerUsername.safeParse('\uFEFF\u2060'))).toBe(
      'Username is required',
    );
    expect(first(speakerFieldsSchema.shape.name.safeParse('\u2066\u2069'))).toBe(
      'Full name is required',
    );
    expect(first(settingsSchema.shape.eventName.safeParse('\u200B'))).toBe('eventName is required');
    expect(first(speakerLoginFormSchema.shape.username.safeParse('\u200B'))).toBe(
      QA_TEXTS.enterUsername,
    );
  });

  it('counts the length of a name once it is cleaned', () => {
    const name = `${'a'.repeat(40)}${'\u200B'.repeat(10)}`;
    expect(usernameSchema.parse(name)).toBe('a'.repeat(40));
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { type MessageFormatElement, TYPE, parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from './catalogs.ts';
import { LANGUAGES, LANGUAGE_NAMES } from './languages.ts';
import { messagesIn } from './catalogs.ts';

const english = CATALOGS.en;
const ids = Object.keys(english);

/** The names a message is made from, through its plurals, selects and tags. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
  }
  return into;
}

const source = (message: unknown) => {
  if (typeof message !== 'string') throw new Error('a catalog holds messages as text');
  return message;
};

describe('message catalogs', () => {
  it('has a catalog file for every shipped language and none besides', () => {
    const dir = path.join(import.meta.dirname, 'catalogs');
    const files = fs.readdirSync(dir).filter((file) => file.endsWith('.json'));
    expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) expect(LANGUAGE_NAMES[language]).toBeTruthy();
  });

  it('keeps the English catalog sorted by message name', () => {
    expect(ids).toEqual([...ids].sort());
  });

  for (const language of LANGUAGES) {
    describe(language, () => {
      const catalog = CATALOGS[language];

      it('has every message and none the English catalog lacks', () => {
        const have = Object.keys(catalog);
        expect({ missing: ids.filter((id) => !have.includes(id)) }).toEqual({ missing: [] });
        expect({ unknown: have.filter((id) => !(id in english)) }).toEqual({ unknown: [] });
      });

      it('writes every message in ICU MessageFormat, made from what the English one is', () => {
        for (const id of ids) {
          const message = catalog[id];
          if (message === undefined) continue;
          const tree = parse(source(message));
          expect({ id, arguments: [...argumentsOf(tree)].sort() }).toEqual({
            id,
            arguments: [...argumentsOf(parse(source(english[id])))].sort(),
          });
        }
      });

      it('leaves no message blank or untranslated by mistake', () => {
        for (const id of ids)
          expect({ id, blank: source(catalog[id] ?? '').trim() === '' }).toEqual({
            id,
            blank: false,
          });
      });

      it('formats the language control in its own words', () => {
        expect(messagesIn(language).format('language.label')).not.toBe('language.label');
      });
    });
  }

  it('uses every message in the code, by its literal name', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    const code = fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => fs.readFileSync(path.join(root, file), 'utf8'))
      .join('\n');
    const unused = ids.filter((id) => !code.includes(`'${id}'`));
    expect({ unused }).toEqual({ unused: [] });
  });

  it('names the count a vote button shows in its accessible name, in every language', () => {
    // The button's text is its count, and its name must contain what it shows (WCAG 2.5.3):
    // every plural form carries the number, "zero", "one" and "two" included.
    for (const language of LANGUAGES) {
      const messages = messagesIn(language);
      for (const count of [0, 1, 2, 3, 11, 100, 101]) {
        const label = messages.format('qa.upvoteLabel', { count });
        expect(label, `${language}, ${count}`).toContain(
          new Intl.NumberFormat(language).format(count),
        );
      }
    }
  });
});

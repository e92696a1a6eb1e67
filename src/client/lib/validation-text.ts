import type { ReactNode } from 'react';
import { TEXTS } from '../../shared/constants.ts';
import type { MessageId, MessageValues } from '../../shared/i18n/messages.ts';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import { translate } from '../i18n/language.ts';

/*
 * The shared schemas check a form the same way in the browser and on the server, and write their
 * refusals in English (the server answers in English). A form shows them in the person's
 * language: each refusal a form can meet is recognised here and written from the catalog; one
 * not known here stays as the schema wrote it.
 */

/** The spec's own messages of a field left empty. */
const FIXED: Readonly<Record<string, MessageId>> = {
  [TEXTS.joinEmptyUsername]: 'validation.enterUsernameJoin',
  [QA_TEXTS.enterUsername]: 'validation.enterUsername',
  [QA_TEXTS.selectSpeaker]: 'validation.selectSpeaker',
};

/** The fields of the attendees' and speakers' forms, by the name the schemas give them. */
const FIELDS: Readonly<Record<string, MessageId>> = {
  'Full name': 'validation.fieldFullName',
  Stack: 'validation.fieldStack',
  Bio: 'validation.fieldBio',
  Username: 'validation.fieldUsername',
  Question: 'validation.fieldQuestion',
  Answer: 'validation.fieldAnswer',
  Caption: 'validation.fieldCaption',
  Title: 'validation.fieldTitle',
  Option: 'validation.fieldOption',
  Speaker: 'validation.fieldSpeaker',
};

/** The schemas' rules of a line of text (`src/shared/schemas/common.ts`), as they word them. */
const RULES: readonly {
  pattern: RegExp;
  id: MessageId;
  values: (match: RegExpExecArray) => MessageValues;
}[] = [
  { pattern: /^(.+) is required$/, id: 'validation.required', values: () => ({}) },
  {
    pattern: /^(.+) must be at most (\d+) characters$/,
    id: 'validation.tooLong',
    values: (match) => ({ max: Number(match[2]) }),
  },
  {
    pattern: /^(.+) contains characters that are not allowed$/,
    id: 'validation.badCharacters',
    values: () => ({}),
  },
];

/** Whether the shown catalog has `id` (before it is read, none: the English text stays). */
const formatted = (id: MessageId, values?: MessageValues): string | undefined => {
  const text = translate(id, values);
  return text === id ? undefined : text;
};

/** A schema's refusal in the language shown; as written when it is not one of a form's. */
export function validationText(message: string): string {
  const fixed = FIXED[message];
  if (fixed) return formatted(fixed) ?? message;
  for (const rule of RULES) {
    const match = rule.pattern.exec(message);
    const field = match?.[1] === undefined ? undefined : FIELDS[match[1]];
    if (!match || !field) continue;
    const name = formatted(field);
    return (name && formatted(rule.id, { field: name, ...rule.values(match) })) ?? message;
  }
  return message;
}

/** A form's check whose refusals show in the language shown (`validate: localized(…)`). */
export const localized =
  <V>(check: (values: V) => Record<string, ReactNode>) =>
  (values: V): Record<string, ReactNode> =>
    Object.fromEntries(
      Object.entries(check(values)).map(([field, error]) => [
        field,
        typeof error === 'string' ? validationText(error) : error,
      ]),
    );

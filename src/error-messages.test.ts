/**
 * The server's refusals and the client's text for them, side by side: every refusal the server
 * can make is either written from the catalogs or knowingly left in English.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  MESSAGE_IDS,
  conflict,
  rateLimited,
  rawErrorAnswer,
  unsupported,
} from './server/http/errors.ts';
import { CATALOGS } from './shared/i18n/catalogs.ts';
import type { ErrorResponse } from './shared/errors.ts';
import { showCatalog } from './client/i18n/language.ts';
import { ERROR_MESSAGES, LEFT_IN_ENGLISH, errorText } from './client/lib/error-text.ts';

/** The body the server answers for `error`, as a client reads it. */
const bodyOf = (error: Parameters<typeof rawErrorAnswer>[0]): ErrorResponse =>
  JSON.parse(rawErrorAnswer(error, {}).split('\r\n\r\n')[1] ?? '') as ErrorResponse;

describe('errorText', () => {
  afterEach(() => showCatalog('en', CATALOGS.en));

  it('knows every refusal of the server: written from the catalog, or left in English', () => {
    const known = [...Object.keys(ERROR_MESSAGES), ...LEFT_IN_ENGLISH];
    expect(MESSAGE_IDS.filter((id) => !known.includes(id))).toEqual([]);
    expect(known.filter((id) => !MESSAGE_IDS.includes(id))).toEqual([]);
    expect(new Set(known).size).toBe(known.length);
  });

  it('writes a refusal exactly as the server does in English', () => {
    showCatalog('en', CATALOGS.en);
    for (const error of [
      conflict('duplicateQuestion'),
      conflict('nameTaken', 'Ada Lovelace'),
      rateLimited('tooManyQuestions', 1),
      rateLimited('wait', 12),
      unsupported('memoryFile', 'notes.txt'),
      unsupported('picture'),
    ]) {
      expect(errorText(error.statusCode, bodyOf(error))).toBe(error.message);
    }
  });

  it('writes a refusal in the language shown, from its name and values', () => {
    const refusal = rateLimited('tooManyQuestions', 12);
    const body = bodyOf(refusal);
    expect(body).toEqual({
      error: 'You are asking very fast. Try again in 12 seconds.',
      code: 'RATE_LIMITED',
      messageId: 'rateLimited.tooManyQuestions',
      params: { seconds: 12 },
    });
    showCatalog('fr', CATALOGS.fr);
    expect(errorText(429, body)).toBe(
      'Vous posez des questions très vite. Réessayez dans 12 secondes.',
    );
    expect(errorText(409, bodyOf(conflict('duplicateQuestion')))).toBe(
      'Vous avez déjà posé cette question',
    );
    expect(errorText(0)).toBe('Erreur réseau\u00a0: vérifiez votre connexion et réessayez.');
  });

  it("shows the server's English text for a refusal the catalog lacks, or a form's rule", () => {
    showCatalog('fr', CATALOGS.fr);
    expect(errorText(400, { error: 'Something new', messageId: 'badRequest.someday' })).toBe(
      'Something new',
    );
    expect(
      errorText(400, { error: 'Bio is required', code: 'VALIDATION', messageId: 'invalid.schema' }),
    ).toBe('Le champ «\u00a0Bio\u00a0» est obligatoire');
  });
});

import type { MemoryPostResponse } from '../../../shared/schemas/memory.ts';
import { shownLanguage, translate } from '../../i18n/language.ts';

/** File names as a list in the shown language ("a.jpg, b.png"), without "and". */
const fileList = (names: readonly string[]): string =>
  new Intl.ListFormat(shownLanguage(), { type: 'unit', style: 'short' }).format(names);

/**
 * What a post became, in the shown language: how many memories were shared (or wait for
 * approval) and, when some files were refused, which and why. The server answers the same in
 * English (`message`); the client says it from the answer's counts instead.
 */
export function postedText(
  result: Pick<MemoryPostResponse, 'memories' | 'refused'>,
  count: number = result.memories.length,
): string {
  const pending = result.memories.some((memory) => memory.status === 'pending');
  const shared = pending
    ? translate('memories.postedPending', { count })
    : translate('memories.posted', { count });
  const { refused } = result;
  const [only] = refused;
  if (!only) return shared;
  const why =
    refused.length === 1
      ? translate('memories.refusedOne', { reason: only.error })
      : translate('memories.refusedMany', {
          count: refused.length,
          names: fileList(refused.map((file) => file.filename)),
          reasons: refused.map((file) => file.error).join(' '),
        });
  return translate('memories.postedWithRefusals', { shared, refused: why });
}

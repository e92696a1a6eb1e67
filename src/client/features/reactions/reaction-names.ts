import type { MessageId } from '../../../shared/i18n/messages.ts';
import { translate } from '../../i18n/language.ts';

/** Words for the default reactions, for screen readers and tooltips; any other emoji is itself. */
const NAMES: Record<string, MessageId> = {
  '👏': 'reactions.applause',
  '❤️': 'reactions.love',
  '😂': 'reactions.laughter',
  '😮': 'reactions.wow',
  '🤔': 'reactions.thinking',
  '🎉': 'reactions.celebrate',
  '👍': 'reactions.thumbsUp',
  '🔥': 'reactions.fire',
};

/**
 * What a reaction is called, in the language shown: a word for the usual ones, else the emoji.
 * Read while rendering, so a screen that draws again on a change of language names them anew.
 */
export const reactionName = (emoji: string): string => {
  const name = NAMES[emoji];
  return name ? translate(name) : emoji;
};

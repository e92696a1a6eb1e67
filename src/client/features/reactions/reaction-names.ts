/** Words for the default reactions, for screen readers and tooltips; any other emoji is itself. */
const NAMES: Record<string, string> = {
  '👏': 'Applause',
  '❤️': 'Love',
  '😂': 'Laughter',
  '😮': 'Wow',
  '🤔': 'Thinking',
  '🎉': 'Celebrate',
  '👍': 'Thumbs up',
  '🔥': 'Fire',
};

/** What a reaction is called: a word for the usual ones, else the emoji. */
export const reactionName = (emoji: string): string => NAMES[emoji] ?? emoji;

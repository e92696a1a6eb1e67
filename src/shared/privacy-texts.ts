import type { Removed } from './schemas/privacy.ts';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the attendee reads about their own data: the name menu, the erasure and the downloads. */
export const PRIVACY_TEXTS = {
  /** The name in the header opens a menu of what the attendee can do with their data. */
  menuLabel: 'Your data',
  downloadData: 'Download my data',
  downloadPhotos: 'Download my photos (ZIP)',
  deleteData: 'Delete my data',
  downloadFailed: 'The download did not work; try again.',
  confirmTitle: 'Delete all your data?',
  confirmBody:
    'Your photos and videos (with every copy of their files), the questions you asked, your ' +
    'votes and poll answers are deleted for everyone, and what waits to be sent from this ' +
    'device is dropped. You are signed out; you can join again as a new attendee. This cannot ' +
    'be undone.',
  confirmButton: 'Delete everything',
  deleteFailed: 'Your data could not be deleted right now; try again.',
  erasedTitle: 'Your data was deleted',
  /** What the erasure answered it removed. */
  erased: (removed: Removed): string => {
    const parts = [
      count(removed.memories, 'memory', 'memories'),
      count(removed.questions, 'question'),
      count(removed.votes, 'vote'),
      ...(removed.pollAnswers > 0 ? [count(removed.pollAnswers, 'poll answer')] : []),
      count(removed.files, 'file'),
    ];
    return `Removed ${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}.`;
  },
} as const;

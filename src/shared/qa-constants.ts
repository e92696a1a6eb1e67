/** Constants and visible texts of speakers and the Q&A (spec sections 2, 4, 8 and 9). */

/** Longest speaker username: the slug of the name is cut at 40, plus room for a suffix. */
export const SPEAKER_USERNAME_MAX = 60;

/** Longest speaker secret accepted at login (ours are 32 characters). */
export const SPEAKER_SECRET_MAX = 200;

/**
 * The picture of a speaker who has none (one imported from a schedule): a neutral silhouette,
 * inline, so every screen that shows `picture` shows something without a request.
 */
export const SPEAKER_NO_PICTURE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><rect width="200" height="200" fill="#868e96" fill-opacity=".18"/><circle cx="100" cy="80" r="34" fill="#868e96" fill-opacity=".6"/><path d="M36 178c6-40 32-60 64-60s58 20 64 60z" fill="#868e96" fill-opacity=".6"/></svg>',
)}`;

/** Questions one attendee may ask a minute unless the admin settings say otherwise. */
export const DEFAULT_QUESTIONS_PER_MINUTE = 5;

/** The same text from the same asker to the same speaker within this time is refused (409). */
export const DUPLICATE_QUESTION_WINDOW_MS = 10 * 60_000;

/** Questions a dashboard carries at once; earlier ones are paged with `before`. */
export const DASHBOARD_QUESTIONS_MAX = 200;

/**
 * A poll for new questions asks for those after (newest known - this), so a question stored a
 * moment late by another server instance is still picked up; duplicates merge by id.
 */
export const QUESTIONS_POLL_OVERLAP_MS = 5_000;

/** Visible texts named by the specification (exact spelling kept, "Succesfully" included). */
export const QA_TEXTS = {
  selectSpeaker: 'Select a speaker',
  noSpeakers: 'No speakers available.',
  addSpeakerBio: 'Add Speaker Bio',
  joinAsSpeaker: 'Join as Speaker',
  uploadBio: 'Upload Bio',
  uploading: 'Uploading . .',
  uploadedTitle: 'Uploaded Succesfully',
  viewMemories: 'View Memories',
  login: 'Login',
  enterUsername: 'Enter your username',
  loginSuccess: 'Login successful!',
  loginFailed: 'Login failed.',
  speakerNotFound: 'Speaker not found',
  noQuestionsAvailable: 'No questions available.',
  loading: 'Loading....',
  dashboardTitle: (name: string) => `${name} Dashboard`,
  duplicateQuestion: 'You already asked this question',
  nameTaken: (name: string) =>
    `A speaker named "${name}" has already signed up. If that is you, sign in with your secret link; otherwise add something that tells you apart (a middle name or initial).`,
  tooManyQuestions: (seconds: number) =>
    `You are asking very fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  questionHidden: 'Question hidden.',
  hiddenQuestions: 'Hidden questions',
  answered: 'Answered',
  /** An anonymous question's asker, on every screen but the admin's (decision 233). */
  anonymous: 'Anonymous',
  presenterView: 'Presenter view',
  secretWarning:
    'Keep this link secret and safe: it is shown only once. Anyone who has it can answer, pin and hide your questions.',
  copyLink: 'Copy sign-in link',
  copied: 'Copied',
} as const;

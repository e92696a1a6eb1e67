/** Constants and visible texts of speakers and the Q&A (spec sections 2, 4, 8 and 9). */

/** Longest speaker username: the slug of the name is cut at 40, plus room for a suffix. */
export const SPEAKER_USERNAME_MAX = 60;

/** Questions a dashboard carries at once; earlier ones are paged with `before`. */
export const DASHBOARD_QUESTIONS_MAX = 200;

/**
 * A poll for new questions asks for those after (newest known - this), so a question stored a
 * moment late by another server instance is still picked up; duplicates merge by id.
 */
export const QUESTIONS_POLL_OVERLAP_MS = 5_000;

/** Visible texts named by the specification (exact spelling kept, "Succesfully" included). */
export const QA_TEXTS = {
  askButton: 'ASK A QUESTION',
  askTitle: 'Ask a Question',
  askPlaceholder: 'Type your question here…',
  selectSpeaker: 'Select a speaker',
  submitting: 'Submitting . . .',
  questionSuccess: 'Question submitted successfully!',
  questionFailure: 'Failed to submit the question.',
  thankYouTitle: 'Thank you!',
  thankYouText: 'Your question has been submitted and will be directed to the selected speaker.',
  selectSpeakers: 'Select Speakers',
  noSpeakers: 'No speakers available.',
  noQuestionsYet: 'No questions yet.',
  selectSpeakerPrompt: 'Select a speaker to view the dashboard',
  back: 'Back',
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
} as const;

/** Product constants from the specification (sections 2, 8 and 9). */

/** Polling intervals in milliseconds; the fallback when the socket is down. */
export const POLL_INTERVALS = {
  gallery: 3_000,
  adminList: 2_000,
  speakerDropdown: 3_000,
  speakers: 5_000,
  questions: 5_000,
  dashboard: 5_000,
} as const;

/** How long the speakers list counts as fresh (spec: 300000 ms). */
export const SPEAKERS_STALE_TIME = 300_000;

/** Product toasts close after 3 s, top-right; Mantine's own default is 5 s. */
export const TOAST_AUTO_CLOSE = 3_000;
export const TOAST_DEFAULT_AUTO_CLOSE = 5_000;

/** Socket reconnection bounds and connect timeout. */
export const SOCKET_RECONNECT_DELAY_MIN = 1_000;
export const SOCKET_RECONNECT_DELAY_MAX = 5_000;
export const SOCKET_CONNECT_TIMEOUT = 20_000;

/** Colour-mode memory: local storage, mirrored in a cookie that lives a year. */
export const COLOR_SCHEME_STORAGE_KEY = 'confab-color-scheme';
export const COLOR_SCHEME_COOKIE_MAX_AGE = 31_536_000;

/** Local storage keys named by the spec. */
export const STORAGE_KEYS = {
  username: 'username',
  adminToken: 'adminToken',
  /** The attendee token kept beside the username (`POST /api/attendees`). */
  attendeeToken: 'attendeeToken',
  /** The questions this browser's attendee upvoted (ids, JSON). */
  votedQuestions: 'votedQuestions',
  /** The questions this browser's attendee asked anonymously (ids, JSON; decision 233). */
  anonymousQuestions: 'anonymousQuestions',
  /** A speaker's token and the username it is for (login with the secret). */
  speakerToken: 'speakerToken',
  speakerTokenUsername: 'speakerTokenUsername',
  /** A random id of this device, sent with every call so limits follow a person (decision 191). */
  clientId: 'clientId',
  /** The speakers this device saw last (ids and names, JSON): the ask dialog offers them offline. */
  speakersSeen: 'speakersSeen',
  /** The attendee's own memories awaiting approval (JSON, decision 140). */
  pendingMemories: 'pendingMemories',
  /** The attendee's own poll answers, by attendee and poll (JSON, decision 229). */
  pollAnswers: 'pollAnswers',
  /**
   * The session whose page (or Q&A) this device opened last, its id: /home offers its reactions
   * while it is on, and its polls (decision 229).
   */
  followedSession: 'followedSession',
  /** The attendee said "Not now" to announcements on this device (decision 240). */
  pushOptInDismissed: 'pushOptInDismissed',
} as const;

/** Admin moderation: texts of the spec's admin screen, bounds and the search debounce. */
export const ADMIN_TEXTS = {
  loginTitle: 'Admin Login',
  /** Under the title: who the console is for and what it holds (not the spec's text). */
  loginIntro:
    'Organisers only: the figures, memories, questions, speakers and settings of the event.',
  loginButton: 'Login',
  loginFailed: 'Login failed.',
  invalidCredentials: 'Invalid username or password',
  searchPlaceholder: 'Search by username or text...',
  fetchError: 'Error fetching memories',
  sessionExpired: 'Your session has expired. Please log in again.',
} as const;
export const ADMIN_LIMITS = {
  credentialMax: 200,
  searchMax: 100,
  searchDebounceMs: 300,
} as const;

/** Saved download names (spec section 9). */
export const DOWNLOAD_NAMES = {
  image: 'memory.png',
  video: 'memory.mp4',
} as const;

/** Files one memory post may carry (each becomes one memory); see docs/decisions/021. */
export const MAX_FILES_PER_POST = 10;

/**
 * Stands for the event's name in the pages prerendered at build time; the server writes the
 * name in force (escaped) in its place.
 */
export const EVENT_NAME_SLOT = '%EVENT_NAME%';
/** The same for the logo's address (the event's, else the app's own). */
export const LOGO_URL_SLOT = '%LOGO_URL%';
/** The same for the join page's line on what is kept and for how long (decision 217). */
export const DATA_KEPT_SLOT = '%DATA_KEPT%';
/** `<meta name>` of the page carrying the last day attendees' data is kept (empty: no end). */
export const DATA_KEPT_META = 'confab-data-kept-until';
/** The app's own logo, shown while the organiser has not set one. */
export const DEFAULT_LOGO_URL = '/logo.svg';
/** `<meta name>` of the page carrying the event's logo address (empty: the app's own). */
export const LOGO_META = 'confab-logo';

/**
 * The server's English texts about memories (spec sections 2 and 8); the app shows its own from
 * the catalogs.
 */
export const MEMORY_TEXTS = {
  tooLarge: (fileName: string, megabytes: number) =>
    `${fileName} is larger than ${megabytes}MB and cannot be uploaded.`,
  /** A memory posted while approval is on, in the answer. */
  postedPending: (count: number) =>
    count === 1
      ? 'Memory received! It will appear in the gallery once approved.'
      : `${count} memories received! They will appear in the gallery once approved.`,
} as const;

/**
 * The message of a post, as the server answers it (the app says the same in the shown language): how many were shared (or
 * received for approval) and, when some files were refused, which and why (decision 144).
 */
export function postedMessage(
  count: number,
  refused: readonly { filename: string; error: string }[] = [],
  pending = false,
): string {
  const shared = pending
    ? MEMORY_TEXTS.postedPending(count)
    : count === 1
      ? 'Memory shared successfully!'
      : `${count} memories shared successfully!`;
  if (refused.length === 0) return shared;
  const [only] = refused;
  if (refused.length === 1 && only) return `${shared} Not shared: ${only.error}`;
  const names = refused.map((file) => file.filename).join(', ');
  return `${shared} ${refused.length} files were not shared (${names}): ${refused.map((file) => file.error).join(' ')}`;
}

/** The photo wall's admin controls (the console is in English). */
export const WALL_TEXTS = {
  openWall: 'Open the wall',
  downloadAll: 'Download all',
  awaitingApproval: 'Awaiting approval',
} as const;

/** Upload size default (MAX_UPLOAD_MB), see docs/decisions on the size limit. */
export const DEFAULT_MAX_UPLOAD_MB = 15;

/** Media types accepted for memories, decided from the bytes, never the name. */
export const ACCEPTED_IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/heic',
  'image/heif',
  // Bursts and other image sequences: their primary (still) picture is used.
  'image/heic-sequence',
  'image/heif-sequence',
  'image/avif',
] as const;
export const ACCEPTED_VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'] as const;

/** The image formats a person would recognise: what the server really accepts. */
export const ACCEPTED_IMAGE_FORMAT_NAMES = [
  'JPG',
  'PNG',
  'WebP',
  'GIF',
  'HEIC',
  'HEIF',
  'AVIF',
] as const;

/** The formats a person would recognise, for the "Supported formats" hint. */
export const ACCEPTED_FORMAT_NAMES = [
  ...ACCEPTED_IMAGE_FORMAT_NAMES,
  'MP4',
  'WebM',
  'MOV',
] as const;

/**
 * The accepted images with the name endings of each, for pickers (a HEIC file often comes
 * without a media type): the same list the server reads.
 */
export const ACCEPTED_IMAGE_FILES: Record<(typeof ACCEPTED_IMAGE_TYPES)[number], string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'image/gif': ['.gif'],
  'image/heic': ['.heic'],
  'image/heif': ['.heif'],
  'image/heic-sequence': ['.heics'],
  'image/heif-sequence': ['.heifs'],
  'image/avif': ['.avif'],
};

/** The accepted videos with the name endings of each, for pickers. */
export const ACCEPTED_VIDEO_FILES: Record<(typeof ACCEPTED_VIDEO_TYPES)[number], string[]> = {
  'video/mp4': ['.mp4', '.m4v'],
  'video/webm': ['.webm'],
  'video/quicktime': ['.mov'],
};

/** Length bounds the spec leaves open (see docs/decisions/005-text-limits.md). */
export const LIMITS = {
  usernameMax: 40,
  captionMax: 2_000,
  questionMax: 1_000,
  /** A speaker's written answer to a question (decision 234). */
  answerMax: 2_000,
  speakerNameMax: 100,
  speakerStackMax: 100,
  speakerBioMax: 2_000,
  pageSizeDefault: 60,
  pageSizeMax: 200,
} as const;

/** Visible texts named by the specification. */
export const TEXTS = {
  heroTagline: 'Connect. Share. Engage.',
  heroJoin: (eventName: string) => `Join the Fun at ${eventName}!`,
  joinEmptyUsername: 'Enter your username!!',
  qaRoom: 'Q&A Room',
  logout: 'Logout',
} as const;

/**
 * Header carrying a random id of the device (made once, kept in local storage), sent with every
 * call, so limits follow a person rather than a NAT. A claim, never trusted alone: the limits
 * per address run beside it.
 */
export const CLIENT_ID_HEADER = 'x-confab-user';

/**
 * Header a trusted proxy in front sets to the client's own port (`$remote_port` in nginx), so
 * that a page load is counted per phone connection, as without a proxy.
 */
export const CLIENT_PORT_HEADER = 'x-real-port';

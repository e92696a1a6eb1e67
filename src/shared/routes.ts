/** HTTP paths of the API (spec section 7, exact methods and paths) and of the client. */
export const API_PATHS = {
  health: '/api/health',
  config: '/api/config',
  memoryList: '/api/memory',
  memoryCreate: '/api/memories',
  /** DELETE: an attendee deletes a memory they posted. */
  ownMemory: (id: string) => `/api/memories/${encodeURIComponent(id)}`,
  /** GET: the ids of the caller's own memories (attendee token). */
  ownMemories: '/api/memories/mine',
  /** POST: anyone asks for a memory to come down (decision 216). */
  memoryReport: (id: string) => `/api/memories/${encodeURIComponent(id)}/report`,
  mediaPrefix: '/media',
  speakers: '/speakers',
  speakersCard: '/api/speakerscard',
  speakerAdd: '/api/speakersadd',
  questionCreate: '/questions',
  questionsRealtime: '/api/questions/realtime',
  speakerLogin: '/api/speakers/login',
  speakerDashboard: (username: string) => `/api/speakers/${encodeURIComponent(username)}/dashboard`,
  adminLogin: '/api/admin/login',
  adminCheck: '/api/admin',
  adminMedia: '/api/media',
  adminMediaItem: (id: string) => `/api/media/${encodeURIComponent(id)}`,
  adminMemoriesZip: '/api/admin/memories.zip',
  adminAudit: '/api/admin/audit',
  adminReports: '/api/admin/reports',
  attendees: '/api/attendees',
  attendeeChallenge: '/api/attendees/challenge',
  /** DELETE: the calling attendee erases everything of theirs. */
  attendeeMe: '/api/attendees/me',
  /** GET: everything of the calling attendee as JSON, and their memories' files as a ZIP. */
  attendeeExport: '/api/attendees/me/export',
  attendeeExportZip: '/api/attendees/me/export.zip',
  questionVote: (id: string) => `/api/questions/${encodeURIComponent(id)}/vote`,
  question: (id: string) => `/api/questions/${encodeURIComponent(id)}`,
  adminQuestions: '/api/admin/questions',
  adminQuestionsCsv: '/api/admin/questions.csv',
  speakerQuestionsCsv: (id: string) => `/api/speakers/${encodeURIComponent(id)}/questions.csv`,
  speaker: (id: string) => `/api/speakers/${encodeURIComponent(id)}`,
  speakerSecret: (id: string) => `/api/speakers/${encodeURIComponent(id)}/secret`,
  adminSettings: '/api/admin/settings',
  adminStats: '/api/admin/stats',
  adminStatsCsv: '/api/admin/stats.csv',
  adminSettingsLogo: '/api/admin/settings/logo',
  adminSpeakerLinksCsv: '/api/admin/speakers/links.csv',
  adminScheduleImport: '/api/admin/schedule',
  polls: '/api/polls',
  poll: (id: string) => `/api/polls/${encodeURIComponent(id)}`,
  pollVote: (id: string) => `/api/polls/${encodeURIComponent(id)}/vote`,
  pollReset: (id: string) => `/api/polls/${encodeURIComponent(id)}/reset`,
  pollLeaderboard: (id: string) => `/api/polls/${encodeURIComponent(id)}/leaderboard`,
  pollAnswer: (id: string, answerId: string) =>
    `/api/polls/${encodeURIComponent(id)}/answers/${encodeURIComponent(answerId)}`,
  pollWord: (id: string, text: string) =>
    `/api/polls/${encodeURIComponent(id)}/words/${encodeURIComponent(text)}`,
  adminPollsCsv: '/api/admin/polls.csv',
  /** POST: an attendee's tap of a reaction (decision 237). */
  reactions: '/api/reactions',
  adminPurge: '/api/admin/purge',
  openApi: '/api/openapi.json',
  apiDocs: '/api/docs',
  schedule: '/api/schedule',
  session: (id: string) => `/api/sessions/${encodeURIComponent(id)}`,
  adminRooms: '/api/admin/rooms',
  adminRoom: (id: string) => `/api/admin/rooms/${encodeURIComponent(id)}`,
  adminSessions: '/api/admin/sessions',
  adminSession: (id: string) => `/api/admin/sessions/${encodeURIComponent(id)}`,
  /** GET: today's announcements (anyone); POST on the admin's path sends one. */
  announcements: '/api/announcements',
  adminAnnouncements: '/api/admin/announcements',
  /** POST / DELETE: an attendee's device starts or stops getting announcements by Web Push. */
  pushSubscriptions: '/api/push/subscriptions',
} as const;

/**
 * A client route. `path` is matched as the router matches it (`:name` stands for one segment).
 * `header`: drawn under the attendee header, whose frame the server paints before any script
 * (decision 093). `joined`: only for an attendee who has joined; anyone else lands on the join
 * page.
 */
export interface ClientRoute {
  path: string;
  header: boolean;
  joined?: boolean;
  /**
   * Whose language the screen is in (decision 246): a big screen's (projectors, the wall, the
   * overlay) is the event's default or its address's `?lang=`; the console stays in English;
   * every other screen is in the person's own.
   */
  language?: 'big-screen' | 'console';
}

/**
 * Every client route of the spec's section 2, the one list of them: the router draws its
 * screens from it, the server its history fallback and page shell, and `route-preloads.ts` is
 * keyed by its names.
 */
export const CLIENT_ROUTES = {
  join: { path: '/', header: false },
  // The admin screen has its own bar: the attendee header is about the attendee.
  admin: { path: '/borderlessadmin', header: false, language: 'console' },
  home: { path: '/home', header: true, joined: true },
  memories: { path: '/memories', header: true, joined: true },
  memoryForm: { path: '/memoryForm', header: true, joined: true },
  questions: { path: '/questions', header: true, joined: true },
  memory: { path: '/memory', header: true },
  // A memory's share link: link-preview tags in the page, then the memory's own page.
  memoryShare: { path: '/m/:id', header: true },
  speakersCard: { path: '/speakerscard', header: true },
  speakerForm: { path: '/Speakerform', header: true },
  speakerLogin: { path: '/SpeakerLogin', header: true },
  speakerDashboard: { path: '/speakers/:username/dashboard', header: true },
  // Full screen on a projector: no attendee header.
  speakerPresent: { path: '/speakers/:username/present', header: false, language: 'big-screen' },
  // The photo wall, full screen on a projector: no attendee header.
  wall: { path: '/wall', header: false, language: 'big-screen' },
  // The programme and a talk: public, like the Q&A room (asking needs a username).
  schedule: { path: '/schedule', header: true },
  session: { path: '/sessions/:id', header: true },
  // The organiser's privacy notice, linked from the join page (decision 217).
  privacy: { path: '/privacy', header: true },
  // A room's projector (the session on now by the clock), one session's, and the streaming
  // overlay: full screen, no attendee header.
  roomPresent: { path: '/rooms/:id/present', header: false, language: 'big-screen' },
  sessionPresent: { path: '/sessions/:id/present', header: false, language: 'big-screen' },
  sessionOverlay: { path: '/overlay/sessions/:id', header: false, language: 'big-screen' },
} as const satisfies Record<string, ClientRoute>;

export type ClientRouteName = keyof typeof CLIENT_ROUTES;

const routeNames = Object.keys(CLIENT_ROUTES) as ClientRouteName[];

/** The path of every client route, by name. */
export const CLIENT_PATHS = Object.fromEntries(
  routeNames.map((name) => [name, CLIENT_ROUTES[name].path]),
) as { readonly [Name in ClientRouteName]: (typeof CLIENT_ROUTES)[Name]['path'] };

export const speakerDashboardPath = (username: string) =>
  CLIENT_PATHS.speakerDashboard.replace(':username', encodeURIComponent(username));

export const speakerPresentPath = (username: string) =>
  CLIENT_PATHS.speakerPresent.replace(':username', encodeURIComponent(username));

export const roomPresentPath = (id: string) =>
  CLIENT_PATHS.roomPresent.replace(':id', encodeURIComponent(id));

export const sessionPresentPath = (id: string) =>
  CLIENT_PATHS.sessionPresent.replace(':id', encodeURIComponent(id));

export const sessionOverlayPath = (id: string) =>
  CLIENT_PATHS.sessionOverlay.replace(':id', encodeURIComponent(id));

/** A memory's share link (`/m/:id`), the address the share buttons give out. */
export const memorySharePath = (id: string) =>
  CLIENT_PATHS.memoryShare.replace(':id', encodeURIComponent(id));

/** A session's page (`/sessions/:id`). */
export const sessionPath = (id: string) =>
  CLIENT_PATHS.session.replace(':id', encodeURIComponent(id));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route's path as a pattern of addresses: `:name` is one segment, a trailing slash is allowed. */
const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)))
      .join('/')
      .replace(/\/$/, '')}/?$`,
  );

let patterns: { name: ClientRouteName; pattern: RegExp }[] | undefined;

/** The name of the client route at an address (a pathname), if there is one. */
export function clientRouteAt(pathname: string): ClientRouteName | undefined {
  patterns ??= routeNames.map((name) => ({ name, pattern: patternOf(CLIENT_ROUTES[name].path) }));
  return patterns.find(({ pattern }) => pattern.test(pathname))?.name;
}

/**
 * Whether the page at `pathname` starts with the attendee header: every client route but the
 * join page and the admin screen, and unknown addresses (their "Page not found" has it too).
 */
export function hasAppHeader(pathname: string): boolean {
  const name = clientRouteAt(pathname);
  return name ? CLIENT_ROUTES[name].header : true;
}

/** Whose language the screen at `pathname` is in: the person's own unless the route says. */
export function screenLanguage(pathname: string): 'own' | 'big-screen' | 'console' {
  const name = clientRouteAt(pathname);
  const route: ClientRoute | undefined = name ? CLIENT_ROUTES[name] : undefined;
  return route?.language ?? 'own';
}

/**
 * A speaker's sign-in link: the login page with the username and the secret in the fragment
 * (`#`), which never reaches a server or its logs.
 */
export const speakerSignInLink = (origin: string, username: string, secret: string): string =>
  `${origin}${CLIENT_PATHS.speakerLogin}#${new URLSearchParams({ username, secret }).toString()}`;

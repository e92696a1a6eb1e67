/** HTTP paths of the API (spec section 7, exact methods and paths) and of the client. */
export const API_PATHS = {
  health: '/api/health',
  config: '/api/config',
  memoryList: '/api/memory',
  memoryCreate: '/api/memories',
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
  adminAudit: '/api/admin/audit',
  openApi: '/api/openapi.json',
  apiDocs: '/api/docs',
} as const;

/** Client routes of the spec's section 2. */
export const CLIENT_PATHS = {
  join: '/',
  home: '/home',
  questions: '/questions',
  memories: '/memories',
  memory: '/memory',
  memoryForm: '/memoryForm',
  admin: '/borderlessadmin',
  speakerLogin: '/SpeakerLogin',
  speakerDashboard: '/speakers/:username/dashboard',
  speakersCard: '/speakerscard',
  speakerForm: '/Speakerform',
} as const;

export const speakerDashboardPath = (username: string) =>
  `/speakers/${encodeURIComponent(username)}/dashboard`;

/** Every client route, as the server's history fallback matches them. */
export const CLIENT_ROUTE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/home\/?$/,
  /^\/questions\/?$/,
  /^\/memories\/?$/,
  /^\/memory\/?$/,
  /^\/memoryForm\/?$/,
  /^\/borderlessadmin\/?$/,
  /^\/SpeakerLogin\/?$/,
  /^\/speakers\/[^/]+\/dashboard\/?$/,
  /^\/speakerscard\/?$/,
  /^\/Speakerform\/?$/,
];

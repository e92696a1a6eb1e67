import type { Generated, Kysely } from 'kysely';

/** Table types of the database. Rows never leave the repositories. */
export interface MemoriesTable {
  id: string;
  post_id: string;
  username: string;
  text: string;
  content_type: string;
  media_key: string;
  thumbnail_key: string | null;
  width: number | null;
  height: number | null;
  size_bytes: number;
  created_at: string;
  /** 1 when the stored file carries no location or camera metadata (decision 095), else 0. */
  metadata_stripped: number;
  /** `published` or `pending` (awaiting the admin's approval). */
  status: Generated<string>;
  /** Moved by every change of the row (approval): the lists' versions sum it. */
  revision: Generated<number>;
  /** The attendee id of the token the post was sent with; null when none was (decision 142). */
  owner_id: string | null;
  /** The full-resolution, metadata-free master (decision 149); null only in rows not migrated. */
  original_key: string | null;
  /** A video's poster: a still frame (JPEG) for link previews and the player. */
  poster_key: string | null;
  /** 1 while a video's playable rendition is being made (decision 154), else 0. */
  processing: number;
  /** The instance making the rendition, and until when its lease holds (ISO time). */
  render_owner: string | null;
  render_lease_until: string | null;
  /** How many people's reports on it are open (decision 216); the admin keeping it sets 0. */
  open_reports: Generated<number>;
}

export interface SpeakersTable {
  id: string;
  name: string;
  username: string;
  stack: string;
  bio: string;
  picture_key: string;
  avatar_key: string | null;
  message: string;
  created_at: string;
  /** The name's key: unique (decision 110). */
  name_key: string | null;
  /** SHA-256 of the sign-in secret (hex); null until one is issued. */
  secret_hash: string | null;
  /** The imported schedule's person id (unique); null for speakers who signed up by hand. */
  schedule_person_id?: string | null;
}

export interface QuestionsTable {
  id: string;
  /** Null for a question asked of a session's panel as a whole (decision 223). */
  speaker_id: string | null;
  speaker_name: string;
  asker_username: string;
  question: string;
  created_at: string;
  votes: number;
  /** 0 or 1. */
  answered: number;
  /** 0 or 1; at most one per speaker. */
  pinned: number;
  status: string;
  /** Moved by every change of the row: the question lists' versions sum it. */
  revision: number;
  /** The attendee id of the asker's token, when one was sent. */
  asker_id: string | null;
  /** The programme's session the question was asked in; null: none, or the session is gone. */
  session_id?: string | null;
  /** 0 or 1: asked anonymously (decision 233); set when asked, never cleared. */
  anonymous?: number;
  /** The speaker's written answer (decision 234); null: none. */
  answer?: string | null;
  /** When the answer was last written; null while there is none. */
  answered_at?: string | null;
}

export interface QuestionVotesTable {
  question_id: string;
  attendee_id: string;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AttendeesTable {
  id: string;
  username: string;
  created_at: string;
  /** The nonce of the proof of work paid to join, if one was (unique). */
  proof_nonce: string | null;
  /** When their erasure began (decision 214): their token is refused from then on. */
  erasing_since: string | null;
  /** When their erasure finished; null while it goes on (or never began). */
  erased_at: string | null;
}

/** A file of an erased row still to be deleted from the media store (decision 214). */
export interface ErasureFilesTable {
  key: string;
  attendee_id: string;
  created_at: string;
}

export interface AdminAuditTable {
  id: string;
  admin_username: string;
  action: string;
  target_id: string;
  details: string;
  created_at: string;
}

export interface ResumableUploadsTable {
  id: string;
  attendee_id: string;
  size_bytes: number;
  created_at: string;
  touched_at: string;
  memory_id: string | null;
}

export interface IdempotencyKeysTable {
  /** Who sent the key: the requester a rate limit counts (`requesterKey`). */
  client: string;
  key: string;
  /** The JSON answer the first post got. */
  response: string;
  /** SHA-256 (hex) of the first post's text fields and files; null for keys stored before it. */
  fingerprint: string | null;
  created_at: string;
}

export interface RoomsTable {
  id: string;
  name: string;
  position: number;
  /** The imported schedule's room guid, when it had one. */
  guid: string | null;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  /** The imported schedule's event guid (unique); null for sessions made by hand. */
  guid: string | null;
  title: string;
  abstract: string;
  room_id: string;
  /** UTC instants, ISO 8601 with `Z` (text that sorts as time does). */
  starts_at: string;
  ends_at: string;
  track: string | null;
  /** 0 or 1. */
  cancelled: number;
  /** Moved by every change of the row. */
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface SessionSpeakersTable {
  session_id: string;
  speaker_id: string;
  /** The speaker's place on the session (a panel keeps its order). */
  position: number;
}

/** One row (`id` 'schedule'): the schedule's version, a number that only grows. */
export interface ScheduleStateTable {
  id: string;
  version: number;
}

export interface MemoryReportsTable {
  id: string;
  memory_id: string;
  /** `attendee:<id>`, or `address:<salted hash>` for a reporter without a token (decision 216). */
  reporter: string;
  category: string;
  reason: string;
  created_at: string;
  /** When the admin kept the memory: the report no longer counts, nor does its reporter again. */
  dismissed_at: string | null;
}

export interface PollsTable {
  id: string;
  /** null: a poll of the whole event. */
  session_id: string | null;
  title: string;
  type: string;
  /** JSON: `{ id, text }[]`. */
  options: string;
  state: string;
  created_at: string;
  max_rating: number;
  results_visible: number;
  /** Attendees who answered: one response each. */
  voters: number;
  /** Moved by every change and answer: the lists' ETags, and the order of a poll's states. */
  revision: number;
  /** JSON: a quiz's right option ids. */
  correct_option_ids: string | null;
  /** When the poll was first opened (since its last reset): a quiz's clock. */
  opened_at: string | null;
}

/** A poll's running counters: per option, rating value, word (`w:` first) or ranked option. */
export interface PollCountsTable {
  poll_id: string;
  key: string;
  /** Answers, or a ranking's points. */
  count: number;
  /** A word the owner removed from the cloud. */
  hidden: number;
}

/** One attendee's response to one poll (the pair is the key). */
export interface PollResponsesTable {
  poll_id: string;
  attendee_id: string;
  /** The id of an open answer, as listed. */
  id: string;
  username: string;
  /** JSON of the answer as counted: option ids, a rating, words, or an open text. */
  answer: string;
  answered_at: string;
  /** A quiz's points for this answer. */
  points: number;
  /** An open answer the owner hid. */
  hidden: number;
}

/** An organiser's announcement (decision 239): null session and room, to everyone. */
export interface AnnouncementsTable {
  id: string;
  text: string;
  session_id: string | null;
  room_id: string | null;
  created_at: string;
}

/** A device's Web Push subscription, one per push service endpoint (decision 240). */
export interface PushSubscriptionsTable {
  endpoint: string;
  attendee_id: string;
  /** The device's P-256 public key and authentication secret, base64url. */
  p256dh: string;
  auth: string;
  created_at: string;
  /** The language of the notifications' fixed words; null: English (a subscription from before). */
  language?: string | null;
}

/** The server's VAPID key pair, one row (`id` 'vapid'), made once by whichever instance starts first. */
export interface PushKeysTable {
  id: string;
  public_key: string;
  private_key: string;
  created_at: string;
}

export interface Database {
  memories: MemoriesTable;
  speakers: SpeakersTable;
  questions: QuestionsTable;
  question_votes: QuestionVotesTable;
  settings: SettingsTable;
  attendees: AttendeesTable;
  erasure_files: ErasureFilesTable;
  admin_audit: AdminAuditTable;
  resumable_uploads: ResumableUploadsTable;
  idempotency_keys: IdempotencyKeysTable;
  rooms: RoomsTable;
  sessions: SessionsTable;
  session_speakers: SessionSpeakersTable;
  schedule_state: ScheduleStateTable;
  memory_reports: MemoryReportsTable;
  polls: PollsTable;
  poll_counts: PollCountsTable;
  poll_responses: PollResponsesTable;
  announcements: AnnouncementsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_keys: PushKeysTable;
}

export type Db = Kysely<Database>;

import type { PurgeRemoved } from '../../shared/schemas/admin.ts';
import type { Announcement } from '../../shared/schemas/announcement.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { Question } from '../../shared/schemas/question.ts';
import type { PublicSettings } from '../../shared/schemas/settings.ts';
import type { Speaker } from '../../shared/schemas/speaker.ts';

/**
 * Whom a question's events reach besides everybody's views: `speakerIds`, its own speaker and
 * its session's speakers (decision 223), whose rooms and dashboards show it. Left out: its own
 * speaker alone (and any session's lists are read again).
 */
export interface QuestionAudience {
  speakerIds?: readonly string[];
}

/** The speakers a question's event reaches (see `QuestionAudience`). */
export const audienceOf = (event: {
  question: { speakerId: string | null };
  speakerIds?: readonly string[] | undefined;
}): readonly string[] =>
  event.speakerIds ?? (event.question.speakerId === null ? [] : [event.question.speakerId]);

/**
 * What happened, once per change, published by the service that made it after its transaction
 * committed (CONVENTIONS 16). The list cache, the settings and the sockets of every instance
 * subscribe; nothing else tells them. Each carries what its subscribers need without reading the
 * database again, and travels between instances as JSON.
 */
export type DomainEvent =
  /** A memory was posted (one per file of a post), published or waiting for approval. */
  | { type: 'memoryCreated'; memory: Memory }
  /** A memory changed: approved, or its video's playable rendition is ready. */
  | { type: 'memoryUpdated'; memory: Memory }
  | { type: 'memoryDeleted'; id: string }
  /**
   * Somebody new reported a memory (decision 216): `reporters` is how many people's reports are
   * open now; `hidden` is the memory taken out of public view by this report, else null.
   */
  | { type: 'memoryReported'; memoryId: string; reporters: number; hidden: Memory | null }
  /** The admin kept a memory that was still published: its open reports were dismissed. */
  | { type: 'reportsDismissed'; memoryId: string }
  /**
   * An open report went with its reporter's erasure: `reporters` is how many are open now. A
   * memory it helped hide stays hidden (decision 228).
   */
  | { type: 'reportWithdrawn'; memoryId: string; reporters: number }
  /** Stored videos were cleaned of their metadata at start (decision 095): their files moved. */
  | { type: 'storedVideosCleaned'; count: number }
  | ({ type: 'questionCreated'; question: Question } & QuestionAudience)
  /**
   * An attendee's vote moved a question's count. `revision` orders the states of one question:
   * sockets send a question's votes of a short window once, with the latest (decision 113).
   */
  | ({ type: 'questionVoted'; question: Question; revision: number } & QuestionAudience)
  /** A moderator changed a question: answered, pinned (or unpinned by another's pin), status. */
  | ({ type: 'questionUpdated'; question: Question; revision: number } & QuestionAudience)
  | ({
      type: 'questionDeleted';
      question: Pick<Question, '_id' | 'speakerId' | 'askerUsername' | 'anonymous'> & {
        sessionId?: string | null;
      };
    } & QuestionAudience)
  | { type: 'speakerCreated'; speaker: Speaker }
  /** A speaker was deleted, with their questions; their tokens stopped being valid. */
  | { type: 'speakerDeleted'; speakerId: string }
  /** A speaker got a new secret: the tokens made with the old one stopped being valid. */
  | { type: 'speakerSecretRenewed'; speakerId: string }
  /** Every speaker got a new secret at once (the sign-in links exported to send out). */
  | { type: 'speakerSecretsRenewed'; speakerIds: string[] }
  /**
   * An attendee's erasure began (their token is refused from then on, but to finish it) or
   * finished (their token is refused everywhere) (decision 214).
   */
  | { type: 'attendeeErasure'; attendeeId: string; state: 'erasing' | 'erased' }
  /**
   * Attendees' data was purged (the organiser's "Purge event data", or the retention sweep):
   * one event for everything removed, whatever its size (decision 218).
   */
  | {
      type: 'eventDataPurged';
      removed: PurgeRemoved;
      /** When its attendees were removed (null when it stopped before): older tokens are refused. */
      purgedAt: string | null;
    }
  /** The admin changed the settings; `settings` is their public part, as every screen shows it. */
  | { type: 'settingsUpdated'; settings: PublicSettings }
  /**
   * The programme changed (a room or session written, a schedule imported): `version` is the
   * schedule's new version, a number that only grows (decision 210).
   */
  | { type: 'scheduleChanged'; version: number }
  /**
   * A poll was created, or its owner changed it (state, visibility, a draft's text, a reset, an
   * answer or word hidden). Compact, as `pollVoted`: the sockets read the poll when they send it.
   */
  | { type: 'pollChanged'; pollId: string; sessionId: string | null; revision: number }
  /**
   * An attendee answered a poll (or replaced their answer): its results moved. Compact (decision
   * 220): hundreds a second cross the bus; each instance reads the poll at most 4 times a second.
   */
  | { type: 'pollVoted'; pollId: string; sessionId: string | null; revision: number }
  /** A poll was deleted with its answers; `speakerIds` ran it (their screens drop it too). */
  | { type: 'pollDeleted'; pollId: string; sessionId: string | null; speakerIds: string[] }
  /**
   * Attendees tapped reactions in a session (null: the whole event): one instance's taps of a
   * short window, by emoji. Kept nowhere: the sockets of every instance sum these again over a
   * window and send the sums (decisions 237 and 245).
   */
  | { type: 'reacted'; sessionId: string | null; counts: Record<string, number> }
  /**
   * The organiser announced something (decision 239). `watchedSessions`: the sessions whose
   * watchers it reaches (its session, or every session of its room); null: everyone.
   */
  | { type: 'announcementCreated'; announcement: Announcement; watchedSessions: string[] | null };

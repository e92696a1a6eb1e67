import type { Question } from '../../shared/schemas/question.ts';
import type { ChangeFeed } from '../realtime/change-feed.ts';
import type { QuestionFilter } from './question.repository.ts';

/** The scope of a question list: one speaker's, one asker's, both, or everybody's. */
type Scope = Pick<QuestionFilter, 'speakerId' | 'askerUsername'>;

/** What decides whether a scope's questions changed: its newest id and its count. */
export type ScopeVersionReader = (
  scope: Scope,
) => Promise<{ newestId: string | null; count: number }>;

/** Scopes kept at most; past it the oldest is dropped (and read again when next asked for). */
const MAX_SCOPES = 10_000;

const scopeKey = (speakerId: string | undefined, askerUsername: string | undefined) =>
  JSON.stringify([speakerId ?? null, askerUsername ?? null]);

/**
 * The version of every question list a screen polls (one speaker's, one attendee's, all),
 * kept in memory per scope, so a poll that finds nothing new is answered without the database.
 *
 * Questions are only ever added. A new question changes four scopes — its speaker's, its
 * asker's, both, and everybody's — and only those: the others keep their version, and their
 * pollers their 304. A scope is read from the database the first time it is asked for after
 * a change. A change made on another instance arrives through the change feed.
 */
export class QuestionVersions {
  readonly #read: ScopeVersionReader;
  readonly #feed: ChangeFeed;
  readonly #versions = new Map<string, string>();
  /** Bumped by every change: a read that started before one must not store what it found. */
  #generation = 0;

  constructor(read: ScopeVersionReader, feed: ChangeFeed) {
    this.#read = read;
    this.#feed = feed;
    feed.subscribe('questions', (detail) => {
      const [speakerId, askerUsername] = parseDetail(detail);
      if (speakerId === undefined) this.#forgetAll();
      else this.#forget(speakerId, askerUsername);
    });
  }

  /** The version of a scope when it is known in memory. */
  peek(scope: Scope): string | undefined {
    return this.#versions.get(scopeKey(scope.speakerId, scope.askerUsername));
  }

  /** The version of a scope, read from the database when it is not known. */
  async version(scope: Scope): Promise<string> {
    const key = scopeKey(scope.speakerId, scope.askerUsername);
    const known = this.#versions.get(key);
    if (known !== undefined) return known;
    const generation = this.#generation;
    const { newestId, count } = await this.#read(scope);
    const version = `${count}.${newestId ?? ''}`;
    if (generation === this.#generation) {
      if (this.#versions.size >= MAX_SCOPES) {
        const oldest = this.#versions.keys().next().value;
        if (oldest !== undefined) this.#versions.delete(oldest);
      }
      this.#versions.set(key, version);
    }
    return version;
  }

  /** After a question is stored here: forget the scopes it changed, then tell the others. */
  async added(question: Pick<Question, 'speakerId' | 'askerUsername'>): Promise<void> {
    this.#forget(question.speakerId, question.askerUsername);
    await this.#feed.publish(
      'questions',
      JSON.stringify([question.speakerId, question.askerUsername]),
    );
  }

  #forget(speakerId: string, askerUsername: string | undefined): void {
    this.#generation++;
    for (const s of [speakerId, undefined]) {
      for (const a of [askerUsername, undefined]) this.#versions.delete(scopeKey(s, a));
    }
  }

  #forgetAll(): void {
    this.#generation++;
    this.#versions.clear();
  }
}

/** The speaker and asker a change names; nothing readable names every scope. */
function parseDetail(detail: string | undefined): [string | undefined, string | undefined] {
  try {
    const parsed: unknown = JSON.parse(detail ?? '');
    if (Array.isArray(parsed) && typeof parsed[0] === 'string') {
      return [parsed[0], typeof parsed[1] === 'string' ? parsed[1] : undefined];
    }
  } catch {
    // Falls through: forget everything, which is always correct.
  }
  return [undefined, undefined];
}

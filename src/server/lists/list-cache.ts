import {
  COMPRESSION_THRESHOLD,
  type Encoding,
  compressTextAsync,
} from '../http/transport/compression.ts';
import type { AnswerMemo } from '../http/transport/answer-memo.ts';
import { keepRecent } from '../lib/keep-recent.ts';

/** The polled lists (`schedule`: the programme, one answer per version, decision 210). */
export type ListName = 'memories' | 'speakers' | 'questions' | 'schedule' | 'reports' | 'polls';

/**
 * What decides whether one scope of a list changed: its newest id and its row count, and for a
 * list whose rows can be edited, a revision that every edit moves.
 */
export type ScopeVersionReader = (
  scope: string,
) => Promise<{ newestId: string | null; count: number; revision?: number }>;

/** The scope that stands for a whole list (the gallery, the speakers, everybody's questions). */
export const WHOLE_LIST = '';

/** Scope versions kept per list; past it the oldest is dropped (and read again when asked). */
const MAX_SCOPES = 10_000;
/** Answers kept; past it the least recently asked for is dropped. */
const MAX_ANSWERS = 512;
/** Views whose last tag is kept; past it they all start again. */
const MAX_TAGS = 4096;

interface Answer {
  tag: string;
  identity: Promise<Buffer>;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
  /** The same bodies once made: a poll that finds its body here is answered without a promise. */
  made: { identity?: Buffer; br?: Buffer; gzip?: Buffer };
}

/** A body as it is sent: compressed in an encoding, or as it is (`undefined`). */
type Made = { body: Buffer; encoding: Encoding | undefined };

/**
 * The one cache behind every polled list (decision 101): per list and scope, a version derived
 * from the database (newest id and row count) kept in memory; per view (a page, a query), the
 * JSON answer for the current version, made once and compressed once per encoding.
 *
 * It hears of writes through the domain events (`forgetChangedLists`), this instance's and every
 * other's: the scopes an event changed are forgotten at once and read again from the database
 * the next time they are asked for. A poll that finds its version in memory costs no database
 * query and no serialisation.
 */
export class ListCache {
  readonly #readers: ReadonlyMap<ListName, ScopeVersionReader>;
  readonly #versions = new Map<ListName, Map<string, string>>();
  /**
   * Bumped when every scope of a list changes, and per scope when that scope changes: a read
   * that started before a change of its scope must not be kept, but a change of another scope
   * (a vote on another speaker's question) leaves it alone, so reads keep landing while votes
   * arrive several a second.
   */
  readonly #generations = new Map<ListName, number>();
  readonly #scopeGenerations = new Map<ListName, Map<string, number>>();
  readonly #answers = new Map<string, Answer>();
  /** Per view, the tag of the version last asked for: every poll of a version asks for it. */
  readonly #tags = new Map<string, { version: string; tag: string }>();
  /** Reads of a version under way, by list, generation and scope: one read answers them all. */
  readonly #reading = new Map<string, Promise<string>>();

  /** The app's memo of tags and encodings, which its list routes read requests with too. */
  readonly answers: AnswerMemo;

  constructor(readers: Record<ListName, ScopeVersionReader>, answers: AnswerMemo) {
    this.answers = answers;
    this.#readers = new Map(Object.entries(readers) as [ListName, ScopeVersionReader][]);
    for (const topic of this.#readers.keys()) {
      this.#versions.set(topic, new Map());
      this.#generations.set(topic, 0);
    }
  }

  /** The version of a scope when it is known in memory, else undefined. */
  peek(topic: ListName, scope: string): string | undefined {
    return this.#versions.get(topic)?.get(scope);
  }

  /**
   * The version of a scope, read from the database when it is not known. The polls that miss
   * together (the first ones after a change) share one read.
   */
  version(topic: ListName, scope: string): Promise<string> {
    const known = this.#scopes(topic).get(scope);
    if (known !== undefined) return Promise.resolve(known);
    const generation = this.#generations.get(topic);
    const scopeGeneration = this.#scopeGenerations.get(topic)?.get(scope) ?? 0;
    const key = `${topic}\u0000${generation}\u0000${scopeGeneration}\u0000${scope}`;
    let reading = this.#reading.get(key);
    if (!reading) {
      reading = this.#read(topic, scope, generation, scopeGeneration).finally(() =>
        this.#reading.delete(key),
      );
      this.#reading.set(key, reading);
    }
    return reading;
  }

  async #read(
    topic: ListName,
    scope: string,
    generation: number | undefined,
    scopeGeneration: number,
  ): Promise<string> {
    const read = this.#readers.get(topic);
    if (!read) throw new Error(`No list named ${topic}`);
    const { newestId, count, revision } = await read(scope);
    const version =
      revision === undefined
        ? `${count}.${newestId ?? ''}`
        : `${count}.${newestId ?? ''}.${revision}`;
    const versions = this.#scopes(topic);
    if (
      generation === this.#generations.get(topic) &&
      scopeGeneration === (this.#scopeGenerations.get(topic)?.get(scope) ?? 0)
    ) {
      if (versions.size >= MAX_SCOPES) versions.delete(versions.keys().next().value ?? '');
      versions.set(scope, version);
    }
    return version;
  }

  /** The ETag of one view at one version of its scope: weak, the same on every instance. */
  tag(view: string, version: string): string {
    const known = this.#tags.get(view);
    if (known?.version === version) return known.tag;
    const tag = this.answers.versionTag([view, version]);
    if (this.#tags.size >= MAX_TAGS) this.#tags.clear();
    this.#tags.set(view, { version, tag });
    return tag;
  }

  /**
   * The body of a view for a tag, in an encoding, when it is made already: what almost every
   * full answer of a polled list finds. Undefined when it is not (then `body` makes it).
   */
  madeBody(view: string, tag: string, encoding: Encoding | undefined): Made | undefined {
    const answer = this.#answers.get(view);
    const identity = answer?.tag === tag ? answer.made.identity : undefined;
    if (!answer || !identity) return undefined;
    const made: Made | undefined =
      !encoding || identity.length < COMPRESSION_THRESHOLD
        ? { body: identity, encoding: undefined }
        : answer.made[encoding] && { body: answer.made[encoding], encoding };
    if (made) this.#touch(view, answer);
    return made;
  }

  /**
   * The body of a view for a tag, in an encoding: the JSON is made by `load` once per tag, each
   * encoding once per tag (off the event loop), and kept until the tag moves on.
   */
  async body(
    view: string,
    tag: string,
    load: () => Promise<string>,
    encoding: Encoding | undefined,
  ): Promise<Made> {
    let answer = this.#answers.get(view);
    if (answer?.tag !== tag) {
      const made: Answer = {
        tag,
        identity: load().then((json) => (made.made.identity = Buffer.from(json))),
        made: {},
      };
      // A failed read is not kept: the next poll tries again.
      made.identity.catch(() => {
        if (this.#answers.get(view) === made) this.#answers.delete(view);
      });
      answer = made;
    }
    this.#touch(view, answer);
    const identity = await answer.identity;
    if (!encoding || identity.length < COMPRESSION_THRESHOLD) {
      return { body: identity, encoding: undefined };
    }
    const { made } = answer;
    const encoded = (answer[encoding] ??= compressTextAsync(identity, encoding).then(
      (body) => (made[encoding] = body),
    ));
    return { body: await encoded, encoding };
  }

  /** Keeps a view's answer as the most recently asked for, dropping the least recent past the bound. */
  #touch(view: string, answer: Answer): void {
    keepRecent(this.#answers, view, answer, MAX_ANSWERS);
  }

  #scopes(topic: ListName): Map<string, string> {
    const versions = this.#versions.get(topic);
    if (!versions) throw new Error(`No list named ${topic}`);
    return versions;
  }

  /**
   * After a write (here or on another instance) committed: forgets the scopes it changed, all of
   * the list's when none are named.
   */
  forget(topic: ListName, scopes?: readonly string[]): void {
    const versions = this.#versions.get(topic);
    if (!versions) return;
    const scopeGenerations = this.#scopeGenerations.get(topic) ?? new Map<string, number>();
    this.#scopeGenerations.set(topic, scopeGenerations);
    // Past its bound the per-scope record starts again, with every scope of the list (the
    // list's own generation moves, so no read in flight is kept: always correct).
    if (!scopes || scopeGenerations.size >= MAX_SCOPES * 4) {
      this.#generations.set(topic, (this.#generations.get(topic) ?? 0) + 1);
      scopeGenerations.clear();
      versions.clear();
      return;
    }
    for (const scope of scopes) {
      scopeGenerations.set(scope, (scopeGenerations.get(scope) ?? 0) + 1);
      versions.delete(scope);
    }
  }
}

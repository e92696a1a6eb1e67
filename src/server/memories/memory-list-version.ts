import { randomBytes } from 'node:crypto';

/**
 * The version of the memory list in this process: bumped after every write and delete, so a
 * gallery poll can be answered 304 from memory without asking the database. The boot id keeps
 * the tags of an earlier run (or another instance) from ever matching.
 */
export class MemoryListVersion {
  readonly #boot = randomBytes(6).toString('base64url');
  #value = 0;

  bump(): void {
    this.#value += 1;
  }

  /** The ETag of one page of the list at the current version (read it before querying). */
  etag(query: { limit: number; before?: string | undefined }): string {
    return `W/"m.${this.#boot}.${this.#value}.${query.limit}.${query.before ?? ''}"`;
  }
}

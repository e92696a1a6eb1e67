import type { Kysely } from 'kysely';
import { createIndex, newColumns } from '../migration-helpers.ts';

/**
 * The proof of work an attendee paid to join (decision 198): the nonce of the solved challenge,
 * unique, so a proof makes one attendee and never a second (on every instance). Null for a free
 * join and for every attendee stored before.
 */
const columns = newColumns('attendees', [['proof_nonce', 'text']]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await columns.add(db);
  await createIndex(db, 'attendees_proof_nonce_idx', 'attendees', ['proof_nonce'], {
    unique: true,
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('attendees_proof_nonce_idx').execute();
  await columns.drop(db);
}

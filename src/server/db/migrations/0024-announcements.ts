import type { Kysely } from 'kysely';
import { createIndex, requiredText } from '../migration-helpers.ts';

/**
 * Announcements and Web Push (decisions 239 and 240): the organiser's announcements, listed by
 * day; each device's push subscription, keyed by its endpoint and found by its attendee for
 * their erasure and export; the server's VAPID key pair, one row every instance reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('announcements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('text'))
    .addColumn('session_id', 'text')
    .addColumn('room_id', 'text')
    .$call(requiredText('created_at'))
    .execute();
  await createIndex(db, 'announcements_created_idx', 'announcements', ['created_at', 'id']);

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('endpoint', 'text', (c) => c.primaryKey())
    .$call(requiredText('attendee_id', 'p256dh', 'auth', 'created_at'))
    .execute();
  await createIndex(db, 'push_subscriptions_attendee_idx', 'push_subscriptions', [
    'attendee_id',
    'endpoint',
  ]);

  await db.schema
    .createTable('push_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('public_key', 'private_key', 'created_at'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_keys').execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('announcements').execute();
}

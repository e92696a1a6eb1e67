import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Announcement, PushPayload } from '../../shared/schemas/announcement.ts';
import { CLIENT_PATHS } from '../../shared/routes.ts';
import type { DomainEvent } from '../events/domain-events.ts';
import type { EventOrigin, EventSubscriber } from '../events/events.ts';
import type { Executor } from '../db/queries.ts';
import { messagesIn } from '../../shared/i18n/catalogs.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import {
  type StoredSubscription,
  type VapidKeys,
  deleteSubscription,
  listSubscriptions,
} from './push.repository.ts';

/** Requests to push services in flight at once. */
const CONCURRENCY = 64;
/** Subscriptions read at a time. */
const PAGE = 500;
/** A push service keeps an announcement for a phone that is off this long, then drops it. */
const TTL_SECONDS = 4 * 3600;
/** A push service that has not answered in this long is given up on for this announcement. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface PushSenderOptions {
  db: Executor;
  keys: VapidKeys;
  /** The VAPID subject: the app's https address, or a mailto: of its operator. */
  subject: string;
  /** The event's name, as it is when a notification is sent: its title names it. */
  eventName: () => string;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

export interface PushSender extends EventSubscriber {
  /** Resolves once no announcement is being pushed (tests, the benchmark). */
  idle(): Promise<void>;
  /** Pushes nothing more, and waits for the requests in flight. */
  stop(): Promise<void>;
}

/** What one announcement's push did. */
export interface PushOutcome {
  sent: number;
  /** Subscriptions the push service said are gone (404, 410): removed. */
  removed: number;
  failed: number;
}

/**
 * Pushes announcements to every subscribed device (decision 240): a subscriber of the domain
 * events that acts only on those published on this instance (each announcement is pushed once
 * however many instances there are), in the background (the admin's 201 does not wait), at most
 * `CONCURRENCY` requests at once over kept-alive connections, with a TTL and high urgency. A
 * subscription its push service says is gone (404, 410) is removed; any other failure is counted
 * and logged once per announcement, and not tried again (the announcement is in the app anyway).
 */
export function createPushSender(options: PushSenderOptions): PushSender {
  const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const running = new Set<Promise<PushOutcome>>();
  let stopped = false;

  const pushOne = async (
    subscription: StoredSubscription,
    payload: string,
    outcome: PushOutcome,
  ) => {
    try {
      await webpush.sendNotification(subscription, payload, {
        vapidDetails: { subject: options.subject, ...options.keys },
        TTL: TTL_SECONDS,
        urgency: 'high',
        timeout: REQUEST_TIMEOUT_MS,
        agent,
      });
      outcome.sent += 1;
    } catch (error) {
      if (
        error instanceof webpush.WebPushError &&
        (error.statusCode === 404 || error.statusCode === 410)
      ) {
        await deleteSubscription(options.db, subscription.endpoint);
        outcome.removed += 1;
      } else {
        outcome.failed += 1;
        if (outcome.failed === 1) {
          const status = error instanceof webpush.WebPushError ? error.statusCode : undefined;
          options.log.warn(
            { err: error, status, host: new URL(subscription.endpoint).host },
            'an announcement could not be pushed to a device',
          );
        }
      }
    }
  };

  const push = async (announcement: Announcement): Promise<PushOutcome> => {
    const eventName = options.eventName();
    // One payload per language: the title's fixed words are the subscriber's; the text is the
    // organiser's, sent as written.
    const payloads = new Map<Language, string>();
    const payloadIn = (language: Language) => {
      let payload = payloads.get(language);
      if (payload === undefined) {
        const messages = messagesIn(language);
        const body: PushPayload = {
          title: eventName
            ? messages.format('push.title', { eventName })
            : messages.format('push.titleWithoutEvent'),
          body: announcement.text,
          url: `${CLIENT_PATHS.home}?announcement=${encodeURIComponent(announcement._id)}`,
          announcementId: announcement._id,
          lang: language,
        };
        payload = JSON.stringify(body);
        payloads.set(language, payload);
      }
      return payload;
    };
    const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
    for (let after: string | undefined; !stopped;) {
      const page = await listSubscriptions(options.db, { after, limit: PAGE });
      let next = 0;
      const worker = async () => {
        while (!stopped && next < page.length) {
          const subscription = page[next++];
          if (subscription) {
            await pushOne(subscription, payloadIn(subscription.language), outcome);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, page.length) }, worker));
      after = page.at(-1)?.endpoint;
      if (page.length < PAGE) break;
    }
    if (outcome.failed > 0 || outcome.removed > 0) {
      options.log.info({ announcement: announcement._id, ...outcome }, 'announcement pushed');
    }
    return outcome;
  };

  const start = (announcement: Announcement) => {
    const sending = push(announcement).catch((error: unknown) => {
      options.log.warn({ err: error }, 'an announcement could not be pushed');
      return { sent: 0, removed: 0, failed: 0 };
    });
    running.add(sending);
    void sending.finally(() => running.delete(sending));
  };

  const idle = async () => {
    while (running.size > 0) await Promise.all(running);
  };

  return {
    on(event: DomainEvent, origin: EventOrigin) {
      if (stopped || origin !== 'here' || event.type !== 'announcementCreated') return;
      // A room's or a session's announcement is for those in it: their screens show it live; a
      // device knows no room (decision 240).
      if (event.watchedSessions !== null) return;
      start(event.announcement);
    },
    idle,
    async stop() {
      stopped = true;
      await idle();
      agent.destroy();
    },
  };
}

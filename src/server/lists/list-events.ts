import { type DomainEvent, audienceOf } from '../events/domain-events.ts';
import type { EventSubscriber } from '../events/events.ts';
import type { ListCache } from './list-cache.ts';
import { pollsScope } from './poll-scopes.ts';
import { scopesChangedBy } from './question-scopes.ts';

/**
 * The list cache as a subscriber of the domain events: each event forgets the lists, and the
 * scopes of them, it changed (a question only the lists it is in: its speaker's, its asker's, its
 * session's, everybody's, and the dashboards of its speaker and its session's speakers),
 * whichever instance published it.
 */
export function forgetChangedLists(lists: ListCache): EventSubscriber {
  const forgetAll = () => {
    lists.forget('memories');
    lists.forget('speakers');
    lists.forget('questions');
    lists.forget('schedule');
    lists.forget('reports');
    lists.forget('polls');
  };
  const on = (event: DomainEvent) => {
    switch (event.type) {
      case 'memoryCreated':
      case 'memoryUpdated':
      case 'memoryDeleted':
      case 'storedVideosCleaned':
        // Any post, approval or deletion can change any page of the gallery, and the reported
        // memories show the memory as it is.
        lists.forget('memories');
        lists.forget('reports');
        return;
      case 'memoryReported':
        lists.forget('reports');
        // Hidden: gone from the gallery as one awaiting approval.
        if (event.hidden) lists.forget('memories');
        return;
      case 'reportsDismissed':
      case 'reportWithdrawn':
        lists.forget('reports');
        return;
      case 'questionCreated':
      case 'questionVoted':
      case 'questionUpdated':
      case 'questionDeleted':
        // A session's question from a publisher that did not name its audience: its session's
        // speakers' dashboards are unknown, so every question list is read again.
        if (event.speakerIds === undefined && event.question.sessionId) lists.forget('questions');
        else lists.forget('questions', scopesChangedBy(event.question, audienceOf(event)));
        return;
      case 'eventDataPurged':
        // Every memory, question, report and poll answer went.
        forgetAll();
        return;
      case 'speakerCreated':
        lists.forget('speakers');
        return;
      case 'speakerDeleted':
        // Their questions went with them, and their places on the programme's sessions.
        lists.forget('speakers');
        lists.forget('questions');
        lists.forget('schedule');
        return;
      case 'scheduleChanged':
        // An import may have added speakers (decision 212); a speaker's dashboard holds their
        // sessions' questions, and who speaks in which session may have changed (decision 223).
        lists.forget('speakers');
        lists.forget('schedule');
        lists.forget('questions');
        return;
      case 'settingsUpdated':
        // The schedule carries the event's time zone.
        lists.forget('schedule');
        return;
      case 'pollChanged':
      case 'pollVoted':
      case 'pollDeleted':
        lists.forget('polls', [pollsScope(event.sessionId)]);
        return;
      case 'speakerSecretRenewed':
      case 'speakerSecretsRenewed':
      case 'attendeeErasure':
      case 'reacted':
      case 'announcementCreated':
        return;
      default:
        // An event of a newer instance (a rolling deploy) that this one does not know: it may
        // have changed anything.
        event satisfies never;
        forgetAll();
    }
  };
  return {
    on,
    // Whatever changed meanwhile elsewhere is unknown: every list is read again.
    missed: forgetAll,
  };
}

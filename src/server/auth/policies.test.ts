import { describe, expect, it } from 'vitest';
import { moderationRoom } from '../../shared/events.ts';
import { HttpError } from '../http/errors.ts';
import type { Caller } from './callers.ts';
import { authorize, can, moderationRoomFor } from './policies.ts';

const session = { username: 'admin', issuedAt: new Date(0), expiresAt: new Date(1) };
const callers = {
  anonymous: { kind: 'anonymous' },
  ada: { kind: 'attendee', id: 'attendee-ada', username: 'ada' },
  grace: { kind: 'attendee', id: 'attendee-grace', username: 'grace' },
  speaker: { kind: 'speaker', speakerId: 'speaker-1' },
  otherSpeaker: { kind: 'speaker', speakerId: 'speaker-2' },
  admin: { kind: 'admin', session },
} satisfies Record<string, Caller>;
type Who = keyof typeof callers;

/** Who may, of every caller; everyone else is refused. */
const only = (...allowed: Who[]) =>
  Object.fromEntries(
    (Object.keys(callers) as Who[]).map((who) => [who, allowed.includes(who)]),
  ) as Record<Who, boolean>;

const ofSpeaker1 = { speakerId: 'speaker-1' };
const adas = { ownerId: 'attendee-ada' };

// Each row: an action on a subject, and whether each caller may do it.
const table = [
  ['post as', 'ada', only('anonymous', 'ada', 'speaker', 'otherSpeaker', 'admin')],
  // Invisible characters and the edges' spaces do not count; letter case does.
  ['post as', ' ada\u200B ', only('anonymous', 'ada', 'speaker', 'otherSpeaker', 'admin')],
  ['post as', 'Ada', only('anonymous', 'speaker', 'otherSpeaker', 'admin')],
  ['ask as', 'grace', only('anonymous', 'grace', 'speaker', 'otherSpeaker', 'admin')],
  ['moderate question', ofSpeaker1, only('speaker', 'admin')],
  ['export questions', ofSpeaker1, only('speaker', 'admin')],
  ['see moderated questions', ofSpeaker1, only('speaker', 'admin')],
  ['delete memory', adas, only('ada')],
  ['delete memory', { ownerId: null }, only()],
  ['see memory', { status: 'published', ownerId: null }, only(...(Object.keys(callers) as Who[]))],
  ['see memory', { status: 'pending', ...adas }, only('ada')],
  ['see memory', { status: 'pending', ownerId: null }, only()],
  ['continue upload', { attendeeId: 'attendee-grace' }, only('grace')],
] as const;

describe('the policies', () => {
  it.each(table)('%s %j', (action, subject, allowed) => {
    for (const [who, caller] of Object.entries(callers)) {
      // The table's rows pair each action with its own kind of subject.
      expect(can(caller, action, subject as never), who).toBe(allowed[who as Who]);
    }
  });

  it('refuses with the one authorization error: a 403 with the action’s own message', () => {
    const refusals = [
      [() => authorize(callers.ada, 'post as', 'grace'), 'You can only upload as yourself'],
      [() => authorize(callers.ada, 'ask as', 'grace'), 'You can only ask as yourself'],
      [
        () => authorize(callers.otherSpeaker, 'moderate question', ofSpeaker1),
        'This question was asked to another speaker',
      ],
      [
        () => authorize(callers.otherSpeaker, 'export questions', ofSpeaker1),
        "Only that speaker's own questions can be exported",
      ],
      [
        () => authorize(callers.grace, 'delete memory', adas),
        'Only the attendee who posted this memory can delete it',
      ],
    ] as const;
    for (const [refuse, message] of refusals) {
      let thrown: unknown;
      try {
        refuse();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HttpError);
      expect(thrown).toMatchObject({ statusCode: 403, code: 'FORBIDDEN', message });
    }
    expect(() => authorize(callers.admin, 'moderate question', ofSpeaker1)).not.toThrow();
  });

  it('lets a socket watch the admin’s moderation room or a speaker’s own, nobody else', () => {
    expect(moderationRoomFor(callers.admin)).toBe(moderationRoom());
    expect(moderationRoomFor(callers.speaker)).toBe(moderationRoom('speaker-1'));
    expect(moderationRoomFor(callers.ada)).toBeNull();
    expect(moderationRoomFor(callers.anonymous)).toBeNull();
  });
});

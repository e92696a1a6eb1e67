import type { APIRequestContext } from '@playwright/test';
import { API_PATHS } from '../../src/shared/routes.ts';
import type { Poll, PollCreateRequest, PollVoteRequest } from '../../src/shared/schemas/poll.ts';
import { ADMIN_PASSWORD } from './admin-helpers.ts';
import { expect } from './fixtures.ts';

/** The admin's token, for a server started with `ADMIN_PASSWORD`. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/admin/login', {
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A room and a session in it, from `startsAt` to `endsAt` (instants), through the admin's API. */
export async function createSessionViaApi(
  request: APIRequestContext,
  token: string,
  title: string,
  { startsAt, endsAt }: { startsAt: Date; endsAt: Date },
): Promise<string> {
  const room = await request.post('/api/admin/rooms', {
    headers: bearer(token),
    data: { name: `Room of ${title}`, position: 0 },
  });
  expect(room.status(), await room.text()).toBe(201);
  const roomId = ((await room.json()) as { _id: string })._id;
  const session = await request.post('/api/admin/sessions', {
    headers: bearer(token),
    data: { title, roomId, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
  });
  expect(session.status(), await session.text()).toBe(201);
  return ((await session.json()) as { _id: string })._id;
}

/** Creates a poll (a draft) through the API and opens it, as its owner would. */
export async function openPollViaApi(
  request: APIRequestContext,
  token: string,
  poll: PollCreateRequest,
): Promise<Poll> {
  const created = await request.post(API_PATHS.polls, { headers: bearer(token), data: poll });
  expect(created.status(), await created.text()).toBe(201);
  const { _id } = (await created.json()) as Poll;
  return patchPollViaApi(request, token, _id, { state: 'open' });
}

/** Changes a poll (state, results shown) as its owner would. */
export async function patchPollViaApi(
  request: APIRequestContext,
  token: string,
  id: string,
  patch: Record<string, unknown>,
): Promise<Poll> {
  const response = await request.patch(API_PATHS.poll(id), { headers: bearer(token), data: patch });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Poll;
}

/** Answers a poll as a new attendee named `username`. */
export async function voteViaApi(
  request: APIRequestContext,
  pollId: string,
  username: string,
  answer: PollVoteRequest,
): Promise<void> {
  const joined = await request.post('/api/attendees', { data: { username } });
  expect(joined.ok(), await joined.text()).toBe(true);
  const { token } = (await joined.json()) as { token: string };
  const response = await request.put(API_PATHS.pollVote(pollId), {
    headers: bearer(token),
    data: answer,
  });
  expect(response.status(), await response.text()).toBe(200);
}

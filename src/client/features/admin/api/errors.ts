import { ApiError } from '../../../lib/api-client.ts';

/** The server refused the token: the session is over. */
export const isUnauthorized = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 401;

/** What was asked for is not there any more: someone deleted it first. */
export const isGone = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 404;

/** Retry a failed admin call a few times, but never one the server refused for its token. */
export const retryUnlessUnauthorized = (failures: number, error: unknown): boolean =>
  !isUnauthorized(error) && failures < 3;

/** A list polled every 2 s needs one quick retry at most: the next poll is the next try. */
export const retryPollOnce = (failures: number, error: unknown): boolean =>
  !isUnauthorized(error) && failures < 1;

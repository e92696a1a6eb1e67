import type { Poll } from '../../../shared/schemas/poll.ts';

/**
 * The poll a projector shows (decision 231), from a list oldest first as the API answers it: the
 * newest open one; else, unless `openOnly`, the newest closed one whose results are revealed;
 * else none. Drafts never show (the public list has none anyway).
 */
export function pickStagePoll(
  polls: readonly Poll[],
  { openOnly = false }: { openOnly?: boolean } = {},
): Poll | undefined {
  const newestFirst = [...polls].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return (
    newestFirst.find((poll) => poll.state === 'open') ??
    (openOnly
      ? undefined
      : newestFirst.find((poll) => poll.state === 'closed' && poll.resultsVisible))
  );
}

import { PAGE_DATA_ID } from '../../shared/route-preloads.ts';
import type { AnswerSchema } from './api-client.ts';

/**
 * The answers a screen was rendered with on the server (decision 185), by the address that gives
 * them (`FIRST_LISTS`): read from the page's data block, or set by the server's render.
 */
let answers: Map<string, unknown> | undefined;

function pageAnswers(): Map<string, unknown> {
  if (answers) return answers;
  answers = new Map();
  const block = typeof document === 'undefined' ? null : document.getElementById(PAGE_DATA_ID);
  if (block?.textContent) {
    try {
      const parsed: unknown = JSON.parse(block.textContent);
      if (parsed && typeof parsed === 'object') {
        for (const [url, answer] of Object.entries(parsed)) answers.set(url, answer);
      }
    } catch {
      // A block that cannot be read is no data: the screen asks the server, as without one.
    }
  }
  return answers;
}

/**
 * The answer to `url` that the page came with, read with `schema`; undefined when it has none.
 * Each is taken once, by the query that shows it first (its `initialData`): the first render
 * draws what the page already shows, and a later visit to the screen asks the server.
 */
export function takePageAnswer<T>(schema: AnswerSchema<T>, url: string): T | undefined {
  const all = pageAnswers();
  if (!all.has(url)) return undefined;
  const answer = all.get(url);
  all.delete(url);
  try {
    return schema.parse(answer);
  } catch {
    return undefined;
  }
}

/** The server's render of a screen: the answers it renders with, in place of any before. */
export function setPageAnswers(entries: Record<string, unknown>): void {
  answers = new Map(Object.entries(entries));
}

/**
 * The scopes of the question lists (see `ListCache`): one speaker's, one asker's, both, and
 * everybody's. A scope names the filter its version is read with.
 */
export const questionsScope = (speakerId?: string, askerUsername?: string): string =>
  JSON.stringify([speakerId ?? null, askerUsername ?? null]);

/** The filter a scope stands for; a scope that cannot be read stands for everybody's. */
export function questionsFilterOf(scope: string): {
  speakerId: string | undefined;
  askerUsername: string | undefined;
} {
  try {
    const parsed: unknown = JSON.parse(scope);
    if (Array.isArray(parsed)) {
      const [speakerId, askerUsername] = parsed as unknown[];
      return {
        speakerId: typeof speakerId === 'string' ? speakerId : undefined,
        askerUsername: typeof askerUsername === 'string' ? askerUsername : undefined,
      };
    }
  } catch {
    // everybody's
  }
  return { speakerId: undefined, askerUsername: undefined };
}

/**
 * The scopes a new question changes — its speaker's, its asker's, both, and everybody's — and
 * only those: every other list keeps its version, and its pollers their 304.
 */
export const scopesChangedBy = (question: { speakerId: string; askerUsername: string }) => [
  questionsScope(question.speakerId, question.askerUsername),
  questionsScope(question.speakerId),
  questionsScope(undefined, question.askerUsername),
  questionsScope(),
];

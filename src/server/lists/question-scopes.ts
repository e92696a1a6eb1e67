/**
 * The scopes of the question lists (see `ListCache`): one speaker's, one asker's, one session's,
 * any of them together, and everybody's; and a speaker's dashboard (their questions and their
 * sessions', decision 223). A scope names the filter its version is read with.
 */
export const questionsScope = (
  speakerId?: string,
  askerUsername?: string,
  sessionId?: string,
): string =>
  JSON.stringify(
    sessionId === undefined
      ? [speakerId ?? null, askerUsername ?? null]
      : [speakerId ?? null, askerUsername ?? null, sessionId],
  );

/**
 * An asker's own list (`own=true` with their token, decision 233): their questions, the
 * anonymous ones too. The public scopes of an asker hold only the questions asked under a name,
 * so nothing an anonymous question does moves their versions (or ETags).
 */
export const ownScope = (askerUsername: string): string => JSON.stringify({ own: askerUsername });

/** A speaker's dashboard: the questions asked of them and those of their sessions. */
export const dashboardScope = (speakerId: string): string =>
  JSON.stringify({ dashboard: speakerId });

/** What a scope stands for (see `QuestionFilter`). */
export interface ScopeFilter {
  speakerId: string | undefined;
  askerUsername: string | undefined;
  sessionId: string | undefined;
  dashboardOf: string | undefined;
  /** Only the questions asked under a name: every public scope of an asker. */
  named: boolean | undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The filter a scope stands for; a scope that cannot be read stands for everybody's. */
export function questionsFilterOf(scope: string): ScopeFilter {
  const filter: ScopeFilter = {
    speakerId: undefined,
    askerUsername: undefined,
    sessionId: undefined,
    dashboardOf: undefined,
    named: undefined,
  };
  try {
    const parsed: unknown = JSON.parse(scope);
    if (Array.isArray(parsed)) {
      const [speakerId, askerUsername, sessionId] = parsed as unknown[];
      return {
        ...filter,
        speakerId: text(speakerId),
        askerUsername: text(askerUsername),
        sessionId: text(sessionId),
        named: text(askerUsername) === undefined ? undefined : true,
      };
    }
    if (parsed !== null && typeof parsed === 'object' && 'dashboard' in parsed) {
      return { ...filter, dashboardOf: text(parsed.dashboard) };
    }
    if (parsed !== null && typeof parsed === 'object' && 'own' in parsed) {
      return { ...filter, askerUsername: text(parsed.own) ?? '' };
    }
  } catch {
    // everybody's
  }
  return filter;
}

/**
 * The scopes a question's change touches — every list it is in: its speaker's, its asker's, its
 * session's, each of them together, everybody's, and the dashboards of `speakerIds` (its
 * speaker and its session's) — and only those: every other list keeps its version, and its
 * pollers their 304.
 */
export function scopesChangedBy(
  question: {
    speakerId: string | null;
    askerUsername: string | null;
    sessionId?: string | null;
    anonymous?: boolean;
  },
  speakerIds: readonly string[] = [],
): string[] {
  const scopes = new Set<string>();
  const { askerUsername } = question;
  // An anonymous question is in no public list of its asker: only in their own.
  const askers =
    askerUsername === null || question.anonymous === true
      ? [undefined]
      : [askerUsername, undefined];
  if (askerUsername !== null) scopes.add(ownScope(askerUsername));
  for (const speakerId of new Set([question.speakerId ?? undefined, undefined])) {
    for (const asker of askers) {
      for (const sessionId of new Set([question.sessionId ?? undefined, undefined])) {
        scopes.add(questionsScope(speakerId, asker, sessionId));
      }
    }
  }
  for (const speakerId of new Set([
    ...speakerIds,
    ...(question.speakerId ? [question.speakerId] : []),
  ])) {
    scopes.add(dashboardScope(speakerId));
  }
  return [...scopes];
}

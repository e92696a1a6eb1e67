/** The scope of the polls list of one session, or of the event-wide polls (`sessionId` null). */
export const pollsScope = (sessionId: string | null): string => sessionId ?? '';

/** The session a polls scope stands for (null: the event-wide polls). */
export const sessionOfPollsScope = (scope: string): string | null => (scope === '' ? null : scope);

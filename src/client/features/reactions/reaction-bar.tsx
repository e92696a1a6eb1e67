import { Group, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useRef, useState } from 'react';
import { useT } from '../../i18n/language.ts';
import { isRetryLater } from '../../lib/api-client.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { useSendReaction } from './api/send-reaction.ts';
import { reactionName } from './reaction-names.ts';
import classes from './reactions.module.css';

/** After a 429 without `Retry-After`, taps are held back this long. */
const QUIET_MS = 2000;

/**
 * The reaction bar (decision 237): one big button per emoji the event offers, in a session (its
 * screens show the burst) or, with `sessionId` null, for the whole event. A tap answers at once
 * (the button pops); too many taps are let go quietly: the server's 429 only holds the next
 * ones back for a moment. Nothing shows while the organiser has reactions off.
 */
export function ReactionBar({ sessionId, label }: { sessionId: string | null; label?: string }) {
  const t = useT();
  const reactions = useAppConfig().data?.reactions ?? [];
  const send = useSendReaction();
  const quietUntil = useRef(0);
  const [popped, setPopped] = useState<{ emoji: string; n: number } | null>(null);
  const [status, setStatus] = useState('');
  if (reactions.length === 0) return null;

  /** A tap at `at` (the event's time stamp, in the page's milliseconds). */
  const tap = (emoji: string, at: number) => {
    setPopped((last) => ({ emoji, n: (last?.n ?? 0) + 1 }));
    setStatus(t('reactions.sent', { name: reactionName(emoji) }));
    if (at < quietUntil.current) return;
    send.mutate(sessionId ? { emoji, sessionId } : { emoji }, {
      onError: (error) => {
        // Taps are a crowd's applause: one lost is nothing to tell anyone about.
        if (!isRetryLater(error)) return;
        const seconds = error.retryAfterSeconds;
        quietUntil.current = at + (seconds ? seconds * 1000 : QUIET_MS);
      },
    });
  };

  return (
    <div className={classes.bar} role="group" aria-label={label ?? t('reactions.barLabel')}>
      <Group gap={4} justify="center" wrap="wrap">
        {reactions.map((emoji) => (
          <UnstyledButton
            key={emoji}
            className={classes.button}
            aria-label={t('reactions.react', { name: reactionName(emoji) })}
            title={reactionName(emoji)}
            onClick={(event) => tap(emoji, event.timeStamp)}
          >
            <span
              // A new key restarts the pop on every tap.
              key={popped?.emoji === emoji ? popped.n : 0}
              className={popped?.emoji === emoji ? classes.popped : undefined}
              aria-hidden
            >
              {emoji}
            </span>
          </UnstyledButton>
        ))}
      </Group>
      <VisuallyHidden role="status">{status}</VisuallyHidden>
    </div>
  );
}

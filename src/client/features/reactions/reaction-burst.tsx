import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import type { ServerEventPayload } from '../../../shared/events.ts';
import { useT } from '../../i18n/language.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { reactionName } from './reaction-names.ts';
import classes from './reactions.module.css';

/**
 * The most emoji in flight at once: a storm of taps shows as a full lane, never as more nodes
 * (a sum past this drops its oldest, which were nearly gone anyway).
 */
export const MAX_FLYING = 36;
/** Emoji one sum of one kind sends up: a big sum is bigger emoji, not more of them. */
const PER_SUM = 4;
/** How long one flies, in milliseconds (the CSS animation's length). */
const FLIGHT_MS = 2600;
/** Without motion, how long the counts stay once the taps stop. */
const COUNTS_SHOWN_MS = 6000;

interface Flying {
  id: number;
  emoji: string;
  /** Size in `em`, by how many taps it stands for. */
  size: number;
  /** Where across the lane it rises, 0 to 1. */
  x: number;
}

/** Bigger for more taps, by their logarithm: one tap is 1em, a thousand about 3em. */
const sizeFor = (count: number) => Math.min(3.2, 1 + Math.log10(count) * 0.75);

/**
 * The room's reactions on a big screen (decision 237): each sum of `reactions` for this session
 * (and the event-wide ones) sends a few emoji floating up its own lane, sized by their count.
 * The lane is the screen's, beside or above what it shows, so the emoji never cover a question;
 * each node goes when its flight ends, and at most `MAX_FLYING` are in the page. With reduced
 * motion, nothing moves: the counts of the last few seconds show instead.
 */
export function ReactionBurst({ sessionId }: { sessionId: string }) {
  const t = useT();
  const still = useReducedMotion();
  const [flying, setFlying] = useState<Flying[]>([]);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const nextId = useRef(0);
  const clearCounts = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(clearCounts.current), []);

  const take = (payload: ServerEventPayload<'reactions'>) => {
    if (payload.sessionId !== null && payload.sessionId !== sessionId) return;
    const entries = Object.entries(payload.counts);
    if (still) {
      setCounts((shown) => {
        const next = { ...shown };
        for (const [emoji, count] of entries) next[emoji] = (next[emoji] ?? 0) + count;
        return next;
      });
      clearTimeout(clearCounts.current);
      clearCounts.current = setTimeout(() => setCounts({}), COUNTS_SHOWN_MS);
      return;
    }
    const added: Flying[] = [];
    for (const [emoji, count] of entries) {
      const shown = Math.min(PER_SUM, count);
      for (let i = 0; i < shown; i += 1) {
        added.push({
          id: (nextId.current += 1),
          emoji,
          size: sizeFor(count / shown),
          x: Math.random(),
        });
      }
    }
    setFlying((current) => [...current, ...added].slice(-MAX_FLYING));
  };
  useLiveUpdates({
    on: { reactions: take },
    room: { room: 'session', sessionId },
  });

  const land = (id: number) => setFlying((current) => current.filter((item) => item.id !== id));
  const shownCounts = Object.entries(counts);

  return (
    <div className={classes.lane} data-reactions-lane="">
      {still
        ? shownCounts.length > 0 && (
            <ul className={classes.counts} aria-label={t('reactions.counts')}>
              {shownCounts.map(([emoji, count]) => (
                <li
                  key={emoji}
                  aria-label={t('reactions.count', { name: reactionName(emoji), count })}
                >
                  <span aria-hidden>{emoji}</span> {count}
                </li>
              ))}
            </ul>
          )
        : flying.map((item) => (
            <span
              key={item.id}
              className={classes.flying}
              aria-hidden
              style={{
                fontSize: `${item.size}em`,
                insetInlineStart: `calc(${(item.x * 80).toFixed(1)}% )`,
                animationDuration: `${FLIGHT_MS}ms`,
              }}
              onAnimationEnd={() => land(item.id)}
            >
              {item.emoji}
            </span>
          ))}
    </div>
  );
}

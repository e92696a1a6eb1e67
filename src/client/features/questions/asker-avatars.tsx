import { Avatar } from '@mantine/core';
import type { Question } from '../../../shared/schemas/question.ts';
import { useT } from '../../i18n/language.ts';

const SHOWN = 4;

/**
 * The people who asked under their name, newest first, each once: an anonymous question shows
 * no one (decision 233), not even on its asker's own phone, whose copy may carry their name.
 */
export function distinctAskers(questions: readonly Question[]): string[] {
  const seen = new Set<string>();
  const askers: string[] = [];
  for (let i = questions.length - 1; i >= 0; i -= 1) {
    const question = questions[i];
    const asker = question?.anonymous ? null : question?.askerUsername;
    if (asker === undefined || asker === null || seen.has(asker)) continue;
    seen.add(asker);
    askers.push(asker);
  }
  return askers;
}

/**
 * The avatar group of the Q&A room: the latest askers' initials and "+N" for the real number of
 * other people who asked (the spec's "+19" placeholder, counted). The count shows on hover as
 * the browser's own tooltip: a Mantine Tooltip would bring its positioning library (40 KB) to the
 * room's first render.
 */
export function AskerAvatars({ questions }: { questions: readonly Question[] }) {
  const t = useT();
  const askers = distinctAskers(questions);
  if (askers.length === 0) return null;
  const shown = askers.slice(0, SHOWN);
  const others = askers.length - shown.length;
  const label = t('qa.askersCount', { count: askers.length });
  return (
    <Avatar.Group spacing="sm" role="group" aria-label={label} title={label}>
      {shown.map((asker) => (
        <Avatar key={asker} name={asker} color="initials" size="md" title={asker}>
          {Array.from(asker.trim())[0]?.toUpperCase() ?? '?'}
        </Avatar>
      ))}
      {others > 0 && (
        <Avatar size="md" aria-label={t('qa.askersMore', { count: others })}>
          +{others}
        </Avatar>
      )}
    </Avatar.Group>
  );
}

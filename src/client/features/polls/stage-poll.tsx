import { type PollsScope, usePolls } from './api/get-polls.ts';
import { useT } from '../../i18n/language.ts';
import { PollResults } from './poll-results.tsx';
import classes from './stage-poll.module.css';
import { pickStagePoll } from './stage-poll.ts';

/**
 * A poll on a big screen (decision 231): the scope's open poll, else its last revealed one, with
 * its live results at projector size, or its title, "results hidden" and the voters while they
 * are not revealed. Nothing when there is none. `overlay`: on the streaming overlay's dark card.
 */
export function StagePoll({
  scope,
  openOnly = false,
  overlay = false,
}: {
  scope: PollsScope;
  openOnly?: boolean;
  overlay?: boolean;
}) {
  const t = useT();
  const polls = usePolls(scope);
  const poll = pickStagePoll(polls.data ?? [], { openOnly });
  if (!poll) return null;
  return (
    <section
      className={classes.stage}
      data-overlay={overlay || undefined}
      data-stage-poll
      aria-label={t('polls.stageLabel', { title: poll.title })}
    >
      <div className={classes.label}>
        {poll.state === 'open' ? t('polls.livePoll') : t('polls.pollResults')}
      </div>
      <h2 className={classes.title} dir="auto">
        {poll.title}
      </h2>
      <PollResults poll={poll} size="projector" />
    </section>
  );
}

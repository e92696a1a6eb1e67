import {
  Badge,
  Button,
  CloseButton,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  IconEye,
  IconEyeOff,
  IconPencil,
  IconPlayerPlay,
  IconPlayerStop,
  IconPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import type { MessageId } from '../../../shared/i18n/messages.ts';
import type { Poll, PollPatch } from '../../../shared/schemas/poll.ts';
import { ActionButton } from '../../components/action-button.tsx';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { toastDone } from '../../components/toast.ts';
import { translate, useT } from '../../i18n/language.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useDeletePoll } from './api/delete-poll.ts';
import { usePollLeaderboard } from './api/get-poll-leaderboard.ts';
import { type PollsScope, usePolls } from './api/get-polls.ts';
import { useHidePollAnswer } from './api/hide-poll-answer.ts';
import { usePatchPoll } from './api/patch-poll.ts';
import { useRemovePollWord } from './api/remove-poll-word.ts';
import { useResetPoll } from './api/reset-poll.ts';
import { PollEditor, type PollDraft } from './poll-editor.tsx';
import { POLL_TYPE_LABELS } from './poll-form.ts';
import { PollResults } from './poll-results.tsx';

/** What the owner is asked to confirm: starting a poll over, or deleting it. */
type Confirming = { kind: 'reset' | 'delete'; poll: Poll } | null;

/** A poll's state at a glance: open is the one that stands out (and reads in both schemes). */
const STATE_BADGES = {
  draft: { label: 'polls.stateDraft', color: 'gray', variant: 'outline' },
  open: { label: 'polls.stateOpen', color: undefined, variant: 'filled' },
  closed: { label: 'polls.stateClosed', color: 'gray', variant: 'light' },
} as const satisfies Record<
  Poll['state'],
  { label: MessageId; color: string | undefined; variant: string }
>;

/** The open answers, newest first, each with Hide (or Show, once hidden). */
function OpenAnswers({
  poll,
  token,
  onFailed,
}: {
  poll: Poll;
  token: string;
  onFailed: (error: unknown) => void;
}) {
  const t = useT();
  const hide = useHidePollAnswer(token);
  const answers = poll.results && 'answers' in poll.results ? poll.results.answers : [];
  if (answers.length === 0) return <Text c="dimmed">{t('polls.ownerNoAnswers')}</Text>;
  return (
    <Stack
      gap={6}
      component="ul"
      aria-label={t('polls.ownerAnswers')}
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
    >
      {answers.map((answer) => (
        <Group
          key={answer._id}
          component="li"
          justify="space-between"
          gap="xs"
          wrap="nowrap"
          align="flex-start"
        >
          <Text
            dir="auto"
            c={answer.hidden ? 'dimmed' : undefined}
            td={answer.hidden ? 'line-through' : undefined}
            style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
          >
            {answer.text}
          </Text>
          <ActionButton
            icon={answer.hidden ? IconEye : IconEyeOff}
            color={answer.hidden ? undefined : 'red'}
            style={{ flexShrink: 0 }}
            onClick={() =>
              hide.mutate(
                { id: poll._id, answerId: answer._id, hidden: !answer.hidden },
                { onError: onFailed },
              )
            }
          >
            {answer.hidden ? t('polls.showAnswer') : t('polls.hideAnswer')}
          </ActionButton>
        </Group>
      ))}
    </Stack>
  );
}

/** A word cloud's words, each with a button that removes it (now and from later answers). */
function CloudWords({
  poll,
  token,
  onFailed,
}: {
  poll: Poll;
  token: string;
  onFailed: (error: unknown) => void;
}) {
  const t = useT();
  const remove = useRemovePollWord(token);
  const words = poll.results && 'words' in poll.results ? poll.results.words : [];
  if (words.length === 0) return null;
  return (
    <Group gap={6} aria-label={t('polls.ownerWords')}>
      {words.map((word) => (
        <Badge
          key={word.text}
          variant="light"
          color="gray"
          tt="none"
          size="lg"
          rightSection={
            <CloseButton
              size="xs"
              aria-label={t('polls.removeWord', { word: word.text })}
              onClick={() =>
                remove.mutate(
                  { id: poll._id, text: word.text },
                  {
                    onSuccess: () => toastDone(translate('polls.wordRemoved', { word: word.text })),
                    onError: onFailed,
                  },
                )
              }
            />
          }
        >
          <bdi>{word.text}</bdi> · {t('polls.count', { value: word.count })}
        </Badge>
      ))}
    </Group>
  );
}

/** A quiz's best answerers so far (the owners see it before anyone else). */
function Leaderboard({ poll, token }: { poll: Poll; token: string }) {
  const t = useT();
  const board = usePollLeaderboard(poll._id, poll.voters, token, poll.voters > 0);
  const entries = board.data?.entries.slice(0, 10) ?? [];
  if (entries.length === 0) return null;
  return (
    <Table aria-label={t('polls.leaderboard')} withRowBorders={false} verticalSpacing={2} maw={420}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th ta="start">{t('polls.leaderboard')}</Table.Th>
          <Table.Th ta="end">{t('polls.points')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry, index) => (
          <Table.Tr key={entry.username}>
            <Table.Td>{t('polls.count', { value: index + 1 })}</Table.Td>
            <Table.Td>
              <bdi>{entry.username}</bdi>
            </Table.Td>
            <Table.Td ta="end">{t('polls.count', { value: entry.points })}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * One poll as its owner runs it: what it is and where it stands, the buttons that move it on
 * (open, close, re-open, reveal, reset, delete; edit while a draft), its live results, and what
 * the owner moderates (open answers, a word cloud's words, a quiz's leaderboard).
 */
function OwnerPollCard({
  poll,
  token,
  onEdit,
  onConfirm,
  onFailed,
}: {
  poll: Poll;
  token: string;
  onEdit: (poll: Poll) => void;
  onConfirm: (confirming: Confirming) => void;
  onFailed: (error: unknown) => void;
}) {
  const t = useT();
  const patch = usePatchPoll(token);
  const change = (update: PollPatch) =>
    patch.mutate({ id: poll._id, patch: update }, { onError: onFailed });
  const state = STATE_BADGES[poll.state];
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component="article"
      aria-label={t('polls.stageLabel', { title: poll.title })}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" align="flex-start" wrap="nowrap">
          <Text fw={700} fz="lg" dir="auto" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {poll.title}
          </Text>
          <Text fz="sm" c="dimmed" style={{ flexShrink: 0 }} aria-live="polite">
            {t('polls.answers', { count: poll.voters })}
          </Text>
        </Group>
        <Group gap={6}>
          <Badge variant={state.variant} color={state.color}>
            {t(state.label)}
          </Badge>
          <Badge variant="outline" color="gray">
            {t(POLL_TYPE_LABELS[poll.type])}
          </Badge>
          <Badge variant="light" color={poll.resultsVisible ? 'blue' : 'gray'}>
            {poll.resultsVisible ? t('polls.resultsShownBadge') : t('polls.resultsHiddenBadge')}
          </Badge>
        </Group>
        <Group gap="xs">
          {poll.state === 'draft' && (
            <ActionButton icon={IconPencil} variant="default" onClick={() => onEdit(poll)}>
              {t('polls.edit')}
            </ActionButton>
          )}
          {poll.state === 'draft' && (
            <ActionButton
              icon={IconPlayerPlay}
              variant="filled"
              onClick={() => change({ state: 'open' })}
            >
              {t('polls.open')}
            </ActionButton>
          )}
          {poll.state === 'open' && (
            <ActionButton
              icon={IconPlayerStop}
              variant="filled"
              onClick={() => change({ state: 'closed' })}
            >
              {t('polls.close')}
            </ActionButton>
          )}
          {poll.state === 'closed' && (
            <ActionButton icon={IconPlayerPlay} onClick={() => change({ state: 'open' })}>
              {t('polls.reopen')}
            </ActionButton>
          )}
          <ActionButton
            icon={poll.resultsVisible ? IconEyeOff : IconEye}
            onClick={() => change({ resultsVisible: !poll.resultsVisible })}
          >
            {poll.resultsVisible ? t('polls.hideResults') : t('polls.showResults')}
          </ActionButton>
          {poll.voters > 0 && (
            <ActionButton icon={IconRefresh} onClick={() => onConfirm({ kind: 'reset', poll })}>
              {t('polls.reset')}
            </ActionButton>
          )}
          <ActionButton
            icon={IconTrash}
            color="red"
            onClick={() => onConfirm({ kind: 'delete', poll })}
          >
            {t('polls.delete')}
          </ActionButton>
        </Group>
        {poll.state !== 'draft' &&
          (poll.type === 'open' ? (
            <OpenAnswers poll={poll} token={token} onFailed={onFailed} />
          ) : (
            <>
              <PollResults poll={poll} size="phone" withVoters={false} />
              {poll.type === 'wordcloud' && (
                <CloudWords poll={poll} token={token} onFailed={onFailed} />
              )}
              {poll.type === 'quiz' && <Leaderboard poll={poll} token={token} />}
            </>
          ))}
      </Stack>
    </Paper>
  );
}

/**
 * The polls of a session (or of the whole event) as their owner runs them, with the owner's
 * token: drafts prepared beforehand, then opened, revealed and closed on stage, live. The one
 * panel of the speaker's dashboard and of the console.
 */
export function OwnerPolls({
  scope,
  token,
  onFailed,
  title,
}: {
  scope: PollsScope;
  token: string;
  /** A refusal or a failure: a toast, or (an expired sign-in) the way back to it. */
  onFailed: (error: unknown) => void;
  title?: string;
}) {
  const t = useT();
  const heading = title ?? t('polls.heading');
  const polls = usePolls(scope, token);
  const [draft, setDraft] = useState<PollDraft | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const reset = useResetPoll(token);
  const deletion = useDeletePoll(token);

  const confirm = () => {
    if (!confirming) return;
    const { kind, poll } = confirming;
    if (kind === 'reset') {
      reset.mutate(poll._id, {
        onSuccess: () => toastDone(translate('polls.resetDone', { title: poll.title })),
        onError: onFailed,
        onSettled: () => setConfirming(null),
      });
    } else {
      deletion.mutate(poll._id, {
        onSuccess: () => toastDone(translate('polls.deleted', { title: poll.title })),
        onError: onFailed,
        onSettled: () => setConfirming(null),
      });
    }
  };

  return (
    <Stack gap="sm" component="section" aria-label={heading}>
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Title order={2} fz="xl" dir="auto">
            {heading}
          </Title>
          {polls.data && polls.data.length > 0 && (
            <Badge
              variant="light"
              size="lg"
              aria-label={t('polls.pollCount', { count: polls.data.length })}
            >
              {t('polls.count', { value: polls.data.length })}
            </Badge>
          )}
        </Group>
        <Button leftSection={<IconPlus size={18} />} onClick={() => setDraft({ poll: null })}>
          {t('polls.newPoll')}
        </Button>
      </Group>
      {polls.isPending ? (
        <Loader aria-label={t('polls.loading')} />
      ) : polls.isError && !polls.data ? (
        <RetryAlert title={t('polls.loadFailed')} onRetry={() => void polls.refetch()}>
          {errorMessage(polls.error, t('polls.checkConnection'))}
        </RetryAlert>
      ) : polls.data.length === 0 ? (
        <Paper withBorder radius="lg" p="lg">
          <Text c="dimmed">{t('polls.ownerEmpty')}</Text>
        </Paper>
      ) : (
        polls.data.map((poll) => (
          <OwnerPollCard
            key={poll._id}
            poll={poll}
            token={token}
            onEdit={(edited) => setDraft({ poll: edited })}
            onConfirm={setConfirming}
            onFailed={onFailed}
          />
        ))
      )}
      <PollEditor
        token={token}
        sessionId={scope.sessionId}
        draft={draft}
        onClose={() => setDraft(null)}
        onFailed={onFailed}
      />
      <ConfirmDeleteModal
        opened={confirming !== null}
        title={
          confirming?.kind === 'reset'
            ? t('polls.resetConfirmTitle')
            : t('polls.deleteConfirmTitle')
        }
        quote={confirming?.poll.title}
        confirmLabel={confirming?.kind === 'reset' ? t('polls.reset') : t('polls.delete')}
        icon={confirming?.kind === 'reset' ? IconRefresh : IconTrash}
        deleting={reset.isPending || deletion.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={confirm}
      >
        {confirming?.kind === 'reset'
          ? t('polls.resetConfirmText', { count: confirming.poll.voters })
          : t('polls.deleteConfirmText')}
      </ConfirmDeleteModal>
    </Stack>
  );
}

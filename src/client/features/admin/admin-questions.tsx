import {
  Badge,
  Center,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type Icon,
  IconEye,
  IconEyeOff,
  IconSearch,
  IconThumbUp,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_LIMITS } from '../../../shared/constants.ts';
import { API_PATHS } from '../../../shared/routes.ts';
import type {
  AdminQuestionFlag,
  Question,
  QuestionStatus,
} from '../../../shared/schemas/question.ts';
import { QuestionFlags, WrittenAnswer } from '../../components/question-parts.tsx';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { AnswerEditor } from '../../components/answer-editor.tsx';
import { patchQuestion } from '../questions/api/patch-question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useLiveUpdates } from '../../lib/live.ts';
import {
  ADMIN_QUESTIONS_KEY,
  useAdminQuestions,
  useModerateQuestion,
} from './api/admin-questions.ts';
import { isUnauthorized } from './api/errors.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { ActionButton } from '../../components/action-button.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { LoadError } from './list-notices.tsx';

const STATUS_COLOR: Record<QuestionStatus, string> = {
  published: 'green',
  pending: 'orange',
  hidden: 'gray',
};

/** An action on a question: its button, when it is offered, and what it says once done. */
interface Moderation {
  action: 'publish' | 'hide' | 'delete';
  label: string;
  icon: Icon;
  color?: string;
  offered: (status: QuestionStatus) => boolean;
  done: string;
}

const MODERATIONS: Moderation[] = [
  {
    action: 'publish',
    label: 'Publish',
    icon: IconEye,
    color: 'green',
    offered: (status) => status !== 'published',
    done: 'Question published.',
  },
  {
    action: 'hide',
    label: 'Hide',
    icon: IconEyeOff,
    offered: (status) => status !== 'hidden',
    done: 'Question hidden.',
  },
  {
    action: 'delete',
    label: 'Delete',
    icon: IconTrash,
    color: 'red',
    offered: () => true,
    done: 'Question deleted.',
  },
];

function QuestionRow({
  question,
  onAction,
  busy,
  token,
  onAnswered,
}: {
  question: Question;
  onAction: (moderation: Moderation) => void;
  busy: boolean;
  /** The admin's token: the written answer is edited with it (decision 234). */
  token: string;
  onAnswered: () => void;
}) {
  return (
    <Paper
      component="article"
      withBorder
      radius="md"
      p="sm"
      aria-label={`Question from ${question.askerUsername ?? QA_TEXTS.anonymous}`}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
        <Text size="sm" miw={0} truncate>
          <Text span fw={700}>
            {/* The admin sees who asked an anonymous question (decision 233). */}
            {question.askerUsername === null ? QA_TEXTS.anonymous : `@${question.askerUsername}`}
          </Text>
          {question.anonymous && (
            <Text span c="dimmed">
              {' (anonymous)'}
            </Text>
          )}
          <Text span c="dimmed">
            {' to '}
          </Text>
          <Text span fw={700}>
            {question.speakerName}
          </Text>
        </Text>
        <Group gap={6} wrap="nowrap">
          <Badge
            variant="default"
            leftSection={
              <span
                aria-hidden
                style={{
                  display: 'inline-block',
                  width: 8,
                  height: 8,
                  borderRadius: 4,
                  background: `var(--mantine-color-${STATUS_COLOR[question.status]}-6)`,
                }}
              />
            }
          >
            {question.status}
          </Badge>
          <Badge variant="default" leftSection={<IconThumbUp size={12} />}>
            {question.votes}
          </Badge>
          <TimeAgo iso={question.createdAt} size="xs" c="dimmed" />
        </Group>
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{question.question}</Text>
      <WrittenAnswer question={question} />
      {(question.answered || question.pinned) && (
        <Group gap={6} mt={6}>
          <QuestionFlags question={question} />
        </Group>
      )}
      <AnswerEditor
        question={question}
        save={(answer) =>
          patchQuestion({ id: question._id, patch: { answer }, token }).then(onAnswered)
        }
      />
      <Group gap="xs" mt="xs">
        {MODERATIONS.filter(({ offered }) => offered(question.status)).map((moderation) => (
          <ActionButton
            key={moderation.action}
            icon={moderation.icon}
            color={moderation.color}
            disabled={busy}
            onClick={() => onAction(moderation)}
          >
            {moderation.label}
          </ActionButton>
        ))}
      </Group>
    </Paper>
  );
}

/**
 * The admin's Questions tab: every question of every status, with what its speaker did (answered,
 * pinned), searched and filtered by both, with hide, publish and delete; live through the
 * moderation room, polled as the fallback.
 */
export function AdminQuestions({ token, onExpired }: { token: string; onExpired: () => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, ADMIN_LIMITS.searchDebounceMs);
  const [status, setStatus] = useState<'all' | QuestionStatus>('all');
  const [flag, setFlag] = useState<'any' | AdminQuestionFlag>('any');
  const questions = useAdminQuestions(
    token,
    debounced,
    status === 'all' ? undefined : status,
    flag === 'any' ? undefined : flag,
  );
  const moderate = useModerateQuestion(token);
  const client = useQueryClient();
  useLiveUpdates({
    on: {
      newQuestion: (_payload, client) =>
        void client.invalidateQueries({ queryKey: ADMIN_QUESTIONS_KEY }),
      questionUpdated: (_payload, client) =>
        void client.invalidateQueries({ queryKey: ADMIN_QUESTIONS_KEY }),
      questionDeleted: (_payload, client) =>
        void client.invalidateQueries({ queryKey: ADMIN_QUESTIONS_KEY }),
      speakerDeleted: (_payload, client) =>
        void client.invalidateQueries({ queryKey: ADMIN_QUESTIONS_KEY }),
    },
    refetchOnConnect: [ADMIN_QUESTIONS_KEY],
    room: { room: 'moderation', token },
  });
  const expired = useSessionExpiry(questions.error, onExpired);

  const act = (question: Question, { action, done }: Moderation) =>
    moderate.mutate(
      { id: question._id, action },
      {
        onSuccess: () => toastDone(done),
        onError: (error) => {
          if (isUnauthorized(error)) onExpired();
          else toastFailed(error, 'That did not work; try again.');
        },
      },
    );
  const list = questions.data ?? [];

  return (
    <Stack gap="sm">
      <Group gap="sm" align="end">
        <TextInput
          type="search"
          aria-label="Search questions"
          placeholder="Search by text, asker or speaker..."
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maxLength={ADMIN_LIMITS.searchMax}
          leftSection={<IconSearch size={18} aria-hidden />}
          style={{ flex: '1 1 260px' }}
        />
        <SegmentedControl
          value={status}
          onChange={(value) => setStatus(value)}
          aria-label="Status"
          data={[
            { value: 'all', label: 'All' },
            { value: 'pending', label: 'Pending' },
            { value: 'published', label: 'Published' },
            { value: 'hidden', label: 'Hidden' },
          ]}
        />
        <SegmentedControl
          value={flag}
          onChange={(value) => setFlag(value)}
          aria-label="Answered or pinned"
          data={[
            { value: 'any', label: 'Any' },
            { value: 'open', label: 'Open' },
            { value: 'answered', label: 'Answered' },
            { value: 'pinned', label: 'Pinned' },
          ]}
        />
        <ExportButton path={API_PATHS.adminQuestionsCsv} token={token} filename="questions.csv" />
      </Group>
      {questions.isError && !expired && (
        <LoadError>The questions could not load; retrying.</LoadError>
      )}
      {questions.isPending ? (
        <Center p="xl">
          <Loader aria-label="Loading the questions" />
        </Center>
      ) : list.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          No questions{status === 'all' ? '' : ` ${status}`}
          {flag === 'any' ? '' : flag === 'open' ? ' still open' : ` ${flag}`}
          {debounced.trim() ? ` matching “${debounced.trim()}”` : ''}.
        </Text>
      ) : (
        <Stack gap="xs" role="feed" aria-label="Questions for moderation">
          {list.map((question) => (
            <QuestionRow
              key={question._id}
              question={question}
              busy={moderate.isPending && moderate.variables.id === question._id}
              onAction={(moderation) => act(question, moderation)}
              token={token}
              onAnswered={() => void client.invalidateQueries({ queryKey: ADMIN_QUESTIONS_KEY })}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

import { Alert, Badge, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { mergeById } from '../../lib/merge-by-id.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { byVotes, questionsQueryOptions } from './api/get-questions.ts';
import { AskQuestionButton } from './ask-question-button.tsx';
import { QuestionBody } from './question-bubble.tsx';
import { useLiveQuestions } from './use-live-questions.ts';
import { VotesProvider } from './votes-context.tsx';
import classes from './qa-room.module.css';
import {
  NoQuestions,
  type QuestionOrder,
  QuestionFrame,
  QuestionOrderControl,
  type QuestionViewProps,
} from '../../components/question-parts.tsx';

/** A speaker of the session, as its Q&A names them. */
export interface SessionSpeaker {
  _id: string;
  name: string;
}

function SessionQuestion({
  question,
  mine,
  canVote,
  panel,
}: QuestionViewProps & { panel: boolean }) {
  return (
    <QuestionFrame question={question}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={6}>
        <Text size="sm" miw={0} truncate>
          <Text span fw={700} className={classes.handle}>
            @{question.askerUsername}
          </Text>
          {panel && (
            <Text span c="dimmed">
              {' to '}
              <bdi>{question.speakerName}</bdi>
            </Text>
          )}
        </Text>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {mine && (
            <Badge size="sm" variant="light">
              You
            </Badge>
          )}
          <TimeAgo iso={question.createdAt} size="xs" c="dimmed" />
        </Group>
      </Group>
      <QuestionBody question={question} canVote={canVote} />
    </QuestionFrame>
  );
}

const NO_QUESTIONS: Question[] = [];

/**
 * A session's Q&A: the questions put to its speakers (most votes first, or the newest), with
 * the thumbs, live; "Ask" opens the ask dialog with the session's (first) speaker chosen.
 */
function SessionQuestionList({ speakers }: { speakers: readonly SessionSpeaker[] }) {
  const [username] = useStoredUsername();
  const [order, setOrder] = useState<QuestionOrder>('top');
  const panel = speakers.length > 1;
  // One speaker: their room; a panel: every question, each kept in its speaker's list.
  const firstId = speakers[0]?._id;
  useLiveQuestions(
    panel ? { room: 'questions' } : firstId ? { room: 'speaker', speakerId: firstId } : null,
  );
  const { questions, pending, failed } = useQueries({
    queries: speakers.map((speaker) =>
      questionsQueryOptions({ kind: 'speaker', speakerId: speaker._id }),
    ),
    combine: (lists) => ({
      questions: lists.reduce<Question[]>(
        (all, list) => (list.data ? mergeById(all, list.data) : all),
        NO_QUESTIONS,
      ),
      pending: lists.some((list) => list.isPending),
      failed: lists.some((list) => list.isError && !list.data),
    }),
  });
  const open = questions.filter((question) => !question.answered);
  const answered = questions.filter((question) => question.answered);
  const arrange = (list: Question[]) =>
    order === 'top' ? list.toSorted(byVotes) : list.toReversed();
  const card = (question: Question) => (
    <SessionQuestion
      key={question._id}
      question={question}
      mine={question.askerUsername === username}
      canVote={Boolean(username)}
      panel={panel}
    />
  );

  return (
    <Stack gap="sm" component="section" aria-labelledby="session-questions">
      <Group justify="space-between" gap="sm">
        <Title order={2} fz="h3" id="session-questions">
          Q&amp;A
        </Title>
        {username && firstId && (
          <AskQuestionButton speakerId={firstId} label="Ask" size="sm" variant="light" />
        )}
      </Group>
      {questions.length > 0 && (
        <QuestionOrderControl
          size="xs"
          value={order}
          onChange={(next) => setOrder(next === 'chat' ? 'recent' : next)}
        />
      )}
      {pending ? (
        <Center p="lg">
          <Loader aria-label="Loading the questions" />
        </Center>
      ) : failed && questions.length === 0 ? (
        <Alert color="red" icon={<IconAlertTriangle />} title="The questions could not load">
          Retrying every few seconds…
        </Alert>
      ) : questions.length === 0 ? (
        <NoQuestions
          py="lg"
          title={QA_TEXTS.noQuestionsYet}
          description={username ? 'Be the first to ask.' : 'Join with a username to ask.'}
        />
      ) : (
        <Stack gap="sm" role="feed" aria-label="Questions">
          {arrange(open).map(card)}
          {answered.length > 0 && (
            <Title order={3} fz="sm" c="dimmed" className={classes.sectionTitle}>
              {QA_TEXTS.answered}
            </Title>
          )}
          {arrange(answered).map(card)}
        </Stack>
      )}
    </Stack>
  );
}

/** The session's Q&A, with the attendee's votes around it; nothing for a session without speakers. */
export function SessionQuestions({ speakers }: { speakers: readonly SessionSpeaker[] }) {
  if (speakers.length === 0) return null;
  return (
    <VotesProvider>
      <SessionQuestionList speakers={speakers} />
    </VotesProvider>
  );
}

import { Alert, Badge, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import type { Question } from '../../../shared/schemas/question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useMessages, useT } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { isOwnQuestion, useOwnQuestionIds } from './own-questions.ts';
import { byVotes } from './api/get-questions.ts';
import { AskQuestionButton } from './ask-question-button.tsx';
import { QuestionBody } from './question-bubble.tsx';
import { useSessionQuestions } from './use-question-lists.ts';
import { VotesProvider } from './votes-context.tsx';
import classes from './qa-room.module.css';
import {
  askerHandle,
  NoQuestions,
  type QuestionOrder,
  QuestionFrame,
  QuestionOrderControl,
  type QuestionViewProps,
} from '../../components/question-parts.tsx';

/** The session a Q&A belongs to: its id and its speakers. */
export interface QuestionsSession {
  _id: string;
  speakers: readonly { _id: string }[];
}

function SessionQuestion({
  question,
  mine,
  canVote,
  panel,
}: QuestionViewProps & { panel: boolean }) {
  const { t, rich } = useMessages();
  const asker = (
    <Text span fw={700} className={classes.handle}>
      <bdi>{askerHandle(question)}</bdi>
    </Text>
  );
  return (
    <QuestionFrame question={question}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={6}>
        <Text size="sm" miw={0} truncate>
          {panel
            ? rich('qa.askedBy', {
                asker,
                muted: (chunks) => (
                  <Text span c="dimmed">
                    {chunks}
                  </Text>
                ),
                speaker: (
                  <Text span c="dimmed">
                    {/* Asked of the panel as a whole, the question carries the session's title. */}
                    {question.speakerId ? <bdi>{question.speakerName}</bdi> : t('qa.thePanel')}
                  </Text>
                ),
              })
            : asker}
        </Text>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {mine && (
            <Badge size="sm" variant="light">
              {t('qa.youBadge')}
            </Badge>
          )}
          <TimeAgo iso={question.createdAt} size="xs" c="dimmed" />
        </Group>
      </Group>
      <QuestionBody question={question} canVote={canVote} />
    </QuestionFrame>
  );
}

/**
 * A session's Q&A: the questions asked in it (of the session, of its panel or of one of its
 * speakers), most votes first or the newest, with the thumbs, live; "Ask" opens the ask dialog
 * with the session chosen (a panel as a whole).
 */
function SessionQuestionList({ session }: { session: QuestionsSession }) {
  const t = useT();
  const [username] = useStoredUsername();
  const own = useOwnQuestionIds();
  const [order, setOrder] = useState<QuestionOrder>('top');
  const panel = session.speakers.length > 1;
  const { questions, pending, failed } = useSessionQuestions(session._id);
  const open = questions.filter((question) => !question.answered);
  const answered = questions.filter((question) => question.answered);
  const arrange = (list: Question[]) =>
    order === 'top' ? list.toSorted(byVotes) : list.toReversed();
  const card = (question: Question) => (
    <SessionQuestion
      key={question._id}
      question={question}
      mine={isOwnQuestion(question, username, own)}
      canVote={Boolean(username)}
      panel={panel}
    />
  );

  return (
    <Stack gap="sm" component="section" aria-labelledby="session-questions">
      <Group justify="space-between" gap="sm">
        <Title order={2} fz="h3" id="session-questions">
          {t('qa.sessionHeading')}
        </Title>
        {username && (
          <AskQuestionButton
            sessionId={session._id}
            label={t('qa.askShort')}
            size="sm"
            variant="light"
          />
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
          <Loader aria-label={t('qa.loadingQuestions')} />
        </Center>
      ) : failed && questions.length === 0 ? (
        <Alert color="red" icon={<IconAlertTriangle />} title={t('qa.questionsLoadFailed')}>
          {t('qa.retrying')}
        </Alert>
      ) : questions.length === 0 ? (
        <NoQuestions
          py="lg"
          title={t('qa.noQuestionsYet')}
          description={username ? t('qa.beFirst') : t('qa.joinToAsk')}
        />
      ) : (
        <Stack gap="sm" role="feed" aria-label={t('qa.questions')}>
          {arrange(open).map(card)}
          {answered.length > 0 && (
            <Title order={3} fz="sm" c="dimmed" className={classes.sectionTitle}>
              {t('qa.answered')}
            </Title>
          )}
          {arrange(answered).map(card)}
        </Stack>
      )}
    </Stack>
  );
}

/** The session's Q&A, with the attendee's votes around it; nothing for a session without speakers. */
export function SessionQuestions({ session }: { session: QuestionsSession }) {
  if (session.speakers.length === 0) return null;
  return (
    <VotesProvider>
      <SessionQuestionList session={session} />
    </VotesProvider>
  );
}

import {
  Alert,
  Anchor,
  Badge,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useMessages, useT } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { isOwnQuestion, useOwnQuestionIds } from './own-questions.ts';
import { type QuestionsScope, byVotes, useQuestions } from './api/get-questions.ts';
import { QuestionBody } from './question-bubble.tsx';
import { VotesProvider } from './votes-context.tsx';
import { AskQuestionButton } from './ask-question-button.tsx';
import { OlderQuestionsButton } from './older-questions-button.tsx';
import { useLiveQuestions } from './use-live-questions.ts';
import classes from './qa-room.module.css';
import {
  askerHandle,
  NoQuestions,
  QuestionFrame,
  QuestionOrderControl,
  type QuestionViewProps,
} from '../../components/question-parts.tsx';

const ALL_QUESTIONS = { room: 'questions' } as const;

function QuestionCard({ question, mine, canVote }: QuestionViewProps) {
  const { t, rich } = useMessages();
  return (
    <QuestionFrame question={question}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={6}>
        <Text size="sm" miw={0} truncate>
          {rich('qa.askedBy', {
            asker: (
              <Text span fw={700} className={classes.handle}>
                <bdi>{askerHandle(question)}</bdi>
              </Text>
            ),
            muted: (chunks) => (
              <Text span c="dimmed">
                {chunks}
              </Text>
            ),
            speaker: (
              <Anchor
                component={Link}
                // A panel's question (no speaker) opens its session's questions (decision 223).
                to={
                  question.speakerId === null
                    ? `${CLIENT_PATHS.speakersCard}?session=${question.sessionId ?? ''}`
                    : `${CLIENT_PATHS.speakersCard}?speaker=${question.speakerId}`
                }
                fw={700}
              >
                <bdi>{question.speakerName}</bdi>
              </Anchor>
            ),
          })}
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
 * /questions: every question asked, newest first, with the speaker and the asker, live; "Mine"
 * keeps the stored username's own (where the "Thank you!" modal leads).
 */
export default function QuestionsScreen() {
  const t = useT();
  useLiveQuestions(ALL_QUESTIONS);
  const [username = ''] = useStoredUsername();
  const own = useOwnQuestionIds();
  const [params, setParams] = useSearchParams();
  const show = params.get('show') === 'mine' ? 'mine' : 'all';
  const scope: QuestionsScope = show === 'mine' ? { kind: 'asker', username } : { kind: 'all' };
  const questions = useQuestions(scope);
  const order = params.get('order') === 'top' ? 'top' : 'recent';
  // Recent: newest first, as before; Top: most votes first, then oldest.
  const list = questions.data
    ? order === 'top'
      ? [...questions.data].sort(byVotes)
      : [...questions.data].reverse()
    : [];
  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  return (
    <VotesProvider>
      <Stack gap="md" pt="lg" maw={760} mx="auto">
        <Group justify="space-between" gap="sm">
          <Title order={1}>{t('qa.questions')}</Title>
          <AskQuestionButton />
        </Group>
        <Group gap="sm">
          <SegmentedControl
            value={show}
            onChange={(value) => setParam('show', value === 'mine' ? 'mine' : null)}
            data={[
              { value: 'all', label: t('qa.showAll') },
              { value: 'mine', label: t('qa.showMine') },
            ]}
            aria-label={t('qa.showLabel')}
            w={240}
          />
          <QuestionOrderControl
            value={order}
            onChange={(next) => setParam('order', next === 'top' ? 'top' : null)}
          />
        </Group>
        {questions.isPending ? (
          <Center p="xl">
            <Loader aria-label={t('qa.loadingQuestions')} />
          </Center>
        ) : questions.isError && !questions.data ? (
          <Alert color="red" icon={<IconAlertTriangle />} title={t('qa.questionsLoadFailed')}>
            {t('qa.retrying')}
          </Alert>
        ) : list.length === 0 ? (
          <NoQuestions
            py="xl"
            title={show === 'mine' ? t('qa.noOwnQuestions') : t('qa.noQuestionsYet')}
            description={t('qa.noQuestionsHint')}
          />
        ) : (
          <Stack
            gap="sm"
            role="feed"
            aria-label={t('qa.questions')}
            aria-busy={questions.isFetching}
          >
            {list.map((question) => (
              <QuestionCard
                key={question._id}
                question={question}
                mine={isOwnQuestion(question, username, own)}
                canVote={Boolean(username)}
              />
            ))}
            <OlderQuestionsButton scope={scope} held={list.length} variant="light">
              {t('qa.showOlder')}
            </OlderQuestionsButton>
          </Stack>
        )}
      </Stack>
    </VotesProvider>
  );
}

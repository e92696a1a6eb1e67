import {
  Anchor,
  Badge,
  Blockquote,
  Button,
  Center,
  Collapse,
  EmptyState,
  Grid,
  Group,
  Image,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import {
  IconBrandX,
  IconCheck,
  IconEye,
  IconEyeOff,
  IconMoodSad,
  IconPin,
  IconPinnedOff,
  IconPresentation,
  IconQuote,
  IconSend,
  IconThumbUp,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { API_PATHS, CLIENT_PATHS, speakerPresentPath } from '../../../shared/routes.ts';
import type { Session } from '../../../shared/schemas/programme.ts';
import type { Question, QuestionPatch, QuestionStatus } from '../../../shared/schemas/question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { type Translate, translate, useMessages, useT } from '../../i18n/language.ts';
import { byVotes, updateQuestionInLists } from '../questions/api/get-questions.ts';
import { patchQuestion, usePatchQuestion } from '../questions/api/patch-question.ts';
import { updateDashboardQuestion, useSpeakerDashboard } from './api/get-speaker-dashboard.ts';
import { useSpeakerSession, useSpeakerToken } from './api/speaker-session.ts';
import card from '../../components/question-card.module.css';
import classes from './speaker-dashboard.module.css';
import { useLiveDashboard } from './use-live-dashboard.ts';
import { toastFailed, toastUndoable } from '../../components/toast.ts';
import {
  NoQuestions,
  QuestionFlags,
  QuestionFrame,
  type QuestionOrder,
  QuestionOrderControl,
  WrittenAnswer,
} from '../../components/question-parts.tsx';
import { AnswerEditor } from '../../components/answer-editor.tsx';
import { ActionButton } from '../../components/action-button.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { xHandle, xProfileUrl } from '../../lib/x-profile.ts';
import { useNow } from '../../lib/use-now.ts';
import { useSchedule } from '../programme/api/get-schedule.ts';
import { isOnNow, sessionsOfSpeaker, startTime } from '../programme/api/sessions-now.ts';

/** Which of the speaker's questions the dashboard lists: all, one session's, or the others. */
const ALL = 'all';
const OUTSIDE = 'outside';

/** A session as the picker names it: on now, or its day and start; cancelled ones say so. */
function sessionLabel(t: Translate, session: Session, now: number): string {
  const when = isOnNow(session, now)
    ? t('speakers.onNow')
    : `${session.startsAt.slice(5, 10)} ${startTime(session)}`;
  const values = { when, title: session.title };
  return session.cancelled
    ? t('speakers.sessionOptionCancelled', values)
    : t('speakers.sessionOption', values);
}

/**
 * Who asked: a link to their X profile when their username is an X handle, else plain text;
 * "Anonymous" for a question asked anonymously (decision 233: speakers never see the name).
 */
function Asker({ username }: { username: string | null }) {
  const t = useT();
  if (username === null) {
    return (
      <Text fw={700} size="sm" c="dimmed" className={classes.handle}>
        {t('speakers.anonymous')}
      </Text>
    );
  }
  const handle = xHandle(username);
  if (handle === undefined) {
    return (
      <Text fw={700} size="sm" className={classes.handle} dir="auto">
        {username}
      </Text>
    );
  }
  return (
    <Anchor
      href={xProfileUrl(handle)}
      target="_blank"
      rel="noopener noreferrer"
      fw={700}
      size="sm"
      className={classes.handle}
      aria-label={t('speakers.onX', { handle })}
    >
      <IconBrandX size={14} aria-hidden /> @{handle}
    </Anchor>
  );
}

/**
 * Hides, unhides or restores a question. It is sent apart from the card's own mutation: the card
 * moves between the feed and the hidden questions, maybe live before the answer arrives, and
 * what follows (the toast with Undo) must not depend on it.
 */
function setStatus(
  client: QueryClient,
  question: Question,
  status: QuestionStatus,
  token: string,
): Promise<Question | undefined> {
  return patchQuestion({ id: question._id, patch: { status }, token }).then(
    ({ question: changed }) => {
      updateQuestionInLists(client, changed);
      updateDashboardQuestion(client, changed);
      return changed;
    },
    (error: unknown) => {
      toastFailed(error, translate('speakers.changeFailed'));
      return undefined;
    },
  );
}

/**
 * The speaker's buttons on one question: answered, pin, hide (and publish a pending one); a
 * hidden one has "Unhide" alone. Hide says so in a toast with "Undo", which puts it back as it
 * was (published, or still awaiting approval).
 */
function SpeakerControls({ question, token }: { question: Question; token: string }) {
  const t = useT();
  const client = useQueryClient();
  const mutation = usePatchQuestion();
  const change = (patch: QuestionPatch) =>
    mutation.mutate(
      { id: question._id, patch, token },
      {
        onSuccess: ({ question: changed }) => updateDashboardQuestion(client, changed),
        onError: (error) => toastFailed(error, t('speakers.changeFailed')),
      },
    );
  if (question.status === 'hidden') {
    return (
      <Group gap="xs" mt="sm">
        <ActionButton
          icon={IconEye}
          onClick={() => void setStatus(client, question, 'published', token)}
        >
          {t('speakers.unhide')}
        </ActionButton>
      </Group>
    );
  }
  const hide = () => {
    const before = question.status;
    void setStatus(client, question, 'hidden', token).then((hidden) => {
      if (!hidden) return;
      toastUndoable(t('speakers.questionHidden'), () => {
        void setStatus(client, hidden, before, token);
      });
    });
  };
  return (
    <Group gap="xs" mt="sm">
      {question.status === 'pending' && (
        <ActionButton icon={IconSend} onClick={() => change({ status: 'published' })}>
          {t('speakers.publish')}
        </ActionButton>
      )}
      {/* Answered, the ✓ of its name is the one mark: no check icon beside it. */}
      <ActionButton
        icon={question.answered ? undefined : IconCheck}
        variant={question.answered ? 'filled' : 'light'}
        onClick={() => change({ answered: !question.answered })}
      >
        {question.answered ? t('speakers.markedAnswered') : t('speakers.markAnswered')}
      </ActionButton>
      <Button
        size="compact-sm"
        variant={question.pinned ? 'filled' : 'light'}
        leftSection={question.pinned ? <IconPinnedOff size={14} /> : <IconPin size={14} />}
        onClick={() => change({ pinned: !question.pinned })}
      >
        {question.pinned ? t('speakers.unpin') : t('speakers.pin')}
      </Button>
      <ActionButton icon={IconEyeOff} color="red" onClick={hide}>
        {t('speakers.hide')}
      </ActionButton>
    </Group>
  );
}

function QuestionItem({
  question,
  token,
  session,
  ownerId,
}: {
  question: Question;
  token: string | undefined;
  /** The session it was asked in, named when the list shows more than one. */
  session?: Session | undefined;
  /** The dashboard's speaker: a question of their panel asked of another is marked so. */
  ownerId?: string | undefined;
}) {
  const { t, rich } = useMessages();
  const client = useQueryClient();
  return (
    <QuestionFrame question={question}>
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={6}>
        <Asker username={question.askerUsername} />
        <TimeAgo iso={question.createdAt} size="xs" c="dimmed" style={{ flexShrink: 0 }} />
      </Group>
      <Text className={card.text} dir="auto">
        {question.question}
      </Text>
      <WrittenAnswer question={question} />
      <Group gap={6} mt={8}>
        <Badge
          variant="light"
          leftSection={<IconThumbUp size={12} />}
          aria-label={t('speakers.votes', { count: question.votes })}
        >
          {question.votes}
        </Badge>
        <QuestionFlags question={question} size="md" />
        {question.speakerId === null && (
          <Badge variant="light" color="grape">
            {t('speakers.toPanel')}
          </Badge>
        )}
        {question.speakerId !== null && ownerId && question.speakerId !== ownerId && (
          <Badge variant="light" color="grape" maw={220}>
            {rich('speakers.toSpeaker', { name: <bdi>{question.speakerName}</bdi> })}
          </Badge>
        )}
        {session && (
          <Badge variant="outline" color="gray" maw={220} dir="auto">
            {session.title}
          </Badge>
        )}
        {question.status === 'pending' && (
          <Badge variant="light" color="orange">
            {t('speakers.awaitingApproval')}
          </Badge>
        )}
      </Group>
      {token && <SpeakerControls question={question} token={token} />}
      {token && question.status !== 'hidden' && (
        <AnswerEditor
          question={question}
          save={(answer) =>
            patchQuestion({ id: question._id, patch: { answer }, token }).then(
              ({ question: changed }) => {
                updateQuestionInLists(client, changed);
                updateDashboardQuestion(client, changed);
              },
            )
          }
        />
      )}
    </QuestionFrame>
  );
}

/**
 * /speakers/:username/dashboard: the speaker's details and the questions put to them, newest
 * first, live over the socket and polled every 5 s. Signed in, `sessionPolls` adds the polls the
 * speaker runs in each of their sessions (the one picked, else every one).
 */
export function SpeakerDashboardScreen({
  sessionPolls,
}: {
  sessionPolls?: (session: Session, token: string) => ReactNode;
}) {
  const { t, rich } = useMessages();
  const { username = '' } = useParams();
  const token = useSpeakerToken(username);
  const session = useSpeakerSession();
  const dashboard = useSpeakerDashboard(username, token);
  const speaker = dashboard.data;
  useLiveDashboard(username, speaker?._id, token);
  const [order, setOrder] = useState<QuestionOrder>('recent');
  const [showHidden, setShowHidden] = useState(false);
  // The speaker's sessions, the one on now first; the list opens on it (decision 223).
  const schedule = useSchedule();
  const now = useNow();
  const sessions = sessionsOfSpeaker(schedule.data, speaker?._id ?? '', now);
  const [picked, setPicked] = useState<string | null>(null);
  const current = sessions.find((session) => isOnNow(session, now));
  const view = picked ?? current?._id ?? ALL;

  useEffect(() => {
    if (dashboard.isError && !dashboard.data)
      console.error('Speaker fetch failed', dashboard.error);
  }, [dashboard.isError, dashboard.data, dashboard.error]);

  if (dashboard.isPending) {
    return (
      <Center mih="50vh">
        <Stack align="center" gap="sm">
          <Loader />
          <Text c="dimmed">{t('speakers.loading')}</Text>
        </Stack>
      </Center>
    );
  }

  if (!speaker) {
    return (
      <Center mih="50vh">
        <EmptyState icon={<IconMoodSad size={28} />} withIndicatorBackground>
          {/* The screen's heading: what the dashboard would have been titled is unknown. */}
          <EmptyState.Title order={1}>{t('speakers.speakerNotFound')}</EmptyState.Title>
          <EmptyState.Description>{t('speakers.checkUsername')}</EmptyState.Description>
          <EmptyState.Actions>
            <Button component={Link} to={CLIENT_PATHS.speakerLogin} variant="light">
              {t('speakers.speakerLogin')}
            </Button>
            <Button variant="default" onClick={() => void dashboard.refetch()}>
              {t('speakers.tryAgain')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Center>
    );
  }

  const sessionOf = (question: Question) =>
    sessions.find((session) => session._id === question.sessionId);
  const inView = speaker.questions.filter((question) =>
    view === ALL
      ? true
      : view === OUTSIDE
        ? sessionOf(question) === undefined
        : question.sessionId === view,
  );
  /** A question's card: with its session named when the list shows several. */
  const item = (question: Question) => (
    <QuestionItem
      key={question._id}
      question={question}
      token={token}
      session={view === ALL ? sessionOf(question) : undefined}
      ownerId={speaker._id}
    />
  );
  const shown = inView.filter((question) => question.status !== 'hidden');
  // Only the speaker's own dashboard (with the token) holds the hidden ones: newest first.
  const hidden = inView.filter((question) => question.status === 'hidden').reverse();
  const pinned = shown.find((question) => question.pinned);
  const rest = shown.filter((question) => question !== pinned);
  const open = rest.filter((question) => !question.answered);
  // Recent: newest first, as before; Top: most votes first, then oldest.
  const ordered = order === 'top' ? [...open].sort(byVotes) : [...open].reverse();
  const answered = rest.filter((question) => question.answered).reverse();
  const newestFirst = [...(pinned ? [pinned] : []), ...ordered];
  const pollSessions = sessions.filter((session) =>
    view === ALL || view === OUTSIDE ? !session.cancelled : session._id === view,
  );

  return (
    <Stack gap="lg" pt="lg">
      <Group justify="space-between" gap="sm">
        <Title order={1} className={classes.title}>
          {rich('speakers.dashboardTitle', { name: <bdi>{speaker.name}</bdi> })}
        </Title>
        <Group gap="xs">
          <Button
            component={Link}
            to={speakerPresentPath(speaker.username)}
            variant="light"
            leftSection={<IconPresentation size={18} />}
          >
            {t('speakers.presenterView')}
          </Button>
          {token && (
            <>
              <ExportButton
                path={API_PATHS.speakerQuestionsCsv(speaker._id)}
                token={token}
                filename={`questions-${speaker.username}.csv`}
              />
              <Button variant="subtle" onClick={session.clear}>
                {t('speakers.signOut')}
              </Button>
            </>
          )}
        </Group>
      </Group>
      {!token && (
        <Text size="sm" c="dimmed">
          {rich('speakers.readOnly', {
            link: (chunks) => (
              <Anchor component={Link} to={CLIENT_PATHS.speakerLogin} underline="always">
                {chunks}
              </Anchor>
            ),
          })}
        </Text>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper
            withBorder
            radius="lg"
            p="md"
            component="section"
            aria-label={t('speakers.detailsLabel')}
          >
            <Stack gap="md">
              <div className={classes.identity}>
                <Image
                  src={speaker.picture}
                  alt={speaker.name}
                  radius="md"
                  className={classes.picture}
                />
                <div>
                  <Text size="xs" tt="uppercase" fw={800} c="dimmed">
                    {t('speakers.stackLabel')}
                  </Text>
                  <Text dir="auto">{speaker.stack}</Text>
                </div>
              </div>
              <div>
                <Text size="xs" tt="uppercase" fw={800} c="dimmed">
                  {t('speakers.bioLabel')}
                </Text>
                <Text className={card.text} dir="auto">
                  {speaker.bio}
                </Text>
              </div>
              {speaker.message && (
                <Blockquote icon={<IconQuote size={18} />} iconSize={32} p="sm" mt="xs">
                  <Text size="sm" dir="auto">
                    {speaker.message}
                  </Text>
                </Blockquote>
              )}
            </Stack>
          </Paper>
          {token && sessionPolls && pollSessions.length > 0 && (
            <Stack gap="lg" mt="lg">
              {pollSessions.map((session) => sessionPolls(session, token))}
            </Stack>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm" component="section" aria-label={t('speakers.questions')}>
            <Group gap="xs" justify="space-between">
              <Group gap="xs">
                <Title order={2} fz="xl">
                  {t('speakers.questions')}
                </Title>
                <Badge
                  variant="light"
                  size="lg"
                  aria-label={t('speakers.questionsCount', { count: shown.length })}
                >
                  {shown.length}
                </Badge>
              </Group>
              <QuestionOrderControl size="xs" value={order} onChange={setOrder} />
            </Group>
            {sessions.length > 0 && (
              <NativeSelect
                label={t('speakers.sessionLabel')}
                value={view}
                onChange={(event) => setPicked(event.currentTarget.value)}
                data={[
                  { value: ALL, label: t('speakers.allQuestions') },
                  ...sessions.map((session) => ({
                    value: session._id,
                    label: sessionLabel(t, session, now),
                  })),
                  { value: OUTSIDE, label: t('speakers.askedOutside') },
                ]}
              />
            )}
            {shown.length === 0 ? (
              <Paper withBorder radius="lg" p="lg">
                <NoQuestions
                  title={t('speakers.noQuestions')}
                  description={t('speakers.noQuestionsHint')}
                />
              </Paper>
            ) : (
              <>
                <Stack gap="sm" role="feed" aria-label={t('speakers.questionsForYou')}>
                  {newestFirst.map(item)}
                </Stack>
                {answered.length > 0 && (
                  <Stack gap="sm" component="section" aria-label={t('speakers.answered')}>
                    <Title order={3} fz="lg" c="dimmed">
                      {t('speakers.answered')}
                    </Title>
                    {answered.map(item)}
                  </Stack>
                )}
              </>
            )}
            {token && hidden.length > 0 && (
              <Stack gap="sm">
                <Button
                  variant="subtle"
                  color="gray"
                  leftSection={<IconEyeOff size={18} />}
                  onClick={() => setShowHidden((open) => !open)}
                  aria-expanded={showHidden}
                  aria-controls="hidden-questions"
                  style={{ alignSelf: 'flex-start' }}
                >
                  {t('speakers.hiddenQuestionsCount', { count: hidden.length })}
                </Button>
                <Collapse expanded={showHidden}>
                  <Stack
                    gap="sm"
                    component="section"
                    id="hidden-questions"
                    aria-label={t('speakers.hiddenQuestions')}
                  >
                    <Text size="sm" c="dimmed">
                      {t('speakers.hiddenNote')}
                    </Text>
                    {hidden.map(item)}
                  </Stack>
                </Collapse>
              </Stack>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

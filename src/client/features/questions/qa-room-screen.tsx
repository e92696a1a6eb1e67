import {
  Alert,
  Avatar,
  Box,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  NavLink,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconMicrophone,
  IconPresentation,
  IconUsers,
} from '@tabler/icons-react';
import { type ReactNode, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Session } from '../../../shared/schemas/programme.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { HiddenPageHeading } from '../../components/page-heading.tsx';
import { type Translate, useT } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { isOwnQuestion, useOwnQuestionIds } from './own-questions.ts';
import { useNow } from '../../lib/use-now.ts';
import { type QuestionsScope, useQuestions } from './api/get-questions.ts';
import { useFollowedSession } from '../programme/api/followed-session.ts';
import { useSchedule } from '../programme/api/get-schedule.ts';
import { isOnNow, startTime, todaysSessions } from '../programme/api/sessions-now.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { AskQuestionButton } from './ask-question-button.tsx';
import { AskerAvatars } from './asker-avatars.tsx';
import { OlderQuestionsButton } from './older-questions-button.tsx';
import { QuestionBubble } from './question-bubble.tsx';
import { VotesProvider } from './votes-context.tsx';
import { arrangeQuestions, endOfLog, tailOfLog } from './question-order.ts';
import { useLiveQuestions } from './use-live-questions.ts';
import classes from './qa-room.module.css';
import {
  NoQuestions,
  QuestionOrderControl,
  type QuestionOrder,
} from '../../components/question-parts.tsx';

const NO_QUESTIONS: Question[] = [];
/** The questions the server renders: more than the tallest screen shows at the log's end. */
const SERVER_QUESTIONS = 20;

const initialOf = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

function SpeakerList({
  speakers,
  selectedId,
}: {
  speakers: ReturnType<typeof useSpeakersCard>;
  selectedId: string | null;
}) {
  const t = useT();
  if (speakers.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={t('qa.loadingSpeakers')} />
      </Center>
    );
  }
  if (speakers.isError && !speakers.data) {
    return (
      <Alert m="md" color="red" icon={<IconAlertTriangle />} title={t('qa.speakersLoadFailed')}>
        {t('qa.retrying')}
      </Alert>
    );
  }
  if (speakers.data.length === 0) {
    return (
      <EmptyState
        p="xl"
        icon={<IconMicrophone size={28} />}
        withIndicatorBackground
        title={t('qa.noSpeakers')}
        description={t('qa.noSpeakersHint')}
      />
    );
  }
  return (
    <Stack gap={4} p="xs" component="nav" aria-label={t('qa.speakers')}>
      {speakers.data.map((speaker) => (
        <NavLink
          key={speaker._id}
          component={Link}
          to={{ search: `?speaker=${speaker._id}` }}
          state={{ fromList: true }}
          active={speaker._id === selectedId}
          aria-current={speaker._id === selectedId ? 'true' : undefined}
          className={classes.speakerLink}
          classNames={{ description: classes.speakerStack }}
          label={
            <Text fw={700} truncate dir="auto">
              {speaker.name}
            </Text>
          }
          description={
            <Text size="sm" truncate dir="auto">
              {speaker.stack}
            </Text>
          }
          leftSection={
            <Avatar name={speaker.name} color="initials" radius="xl" aria-hidden>
              {initialOf(speaker.name)}
            </Avatar>
          }
        />
      ))}
    </Stack>
  );
}

/** When a session runs, as the room lists it: "On now", or its start today. */
const whenOf = (t: Translate, session: Session, now: number) =>
  isOnNow(session, now) ? t('qa.onNow') : startTime(session);

/**
 * Today's talks, the ones on now first (decision 223): each opens its questions, its panel's
 * and its speakers', as the speakers below open theirs. Nothing when the programme has none.
 */
function SessionList({
  sessions,
  selectedId,
  now,
}: {
  sessions: Session[];
  selectedId: string | null;
  now: number;
}) {
  const t = useT();
  if (sessions.length === 0) return null;
  return (
    <Stack gap={4} p="xs" pb={0} component="nav" aria-label={t('qa.talksToday')}>
      <Text size="xs" tt="uppercase" fw={800} c="dimmed" px="xs" pt={4}>
        {t('qa.talksToday')}
      </Text>
      {sessions.map((session) => (
        <NavLink
          key={session._id}
          component={Link}
          to={{ search: `?session=${session._id}` }}
          state={{ fromList: true }}
          active={session._id === selectedId}
          aria-current={session._id === selectedId ? 'true' : undefined}
          className={classes.speakerLink}
          classNames={{ description: classes.speakerStack }}
          label={
            <Text fw={700} truncate dir="auto">
              {session.title}
            </Text>
          }
          description={
            <Text size="sm" truncate>
              {whenOf(t, session, now)}
            </Text>
          }
          leftSection={
            <Avatar radius="xl" color={isOnNow(session, now) ? 'green' : 'gray'} aria-hidden>
              <IconPresentation size={20} />
            </Avatar>
          }
        />
      ))}
    </Stack>
  );
}

/** What the chat panel shows: one speaker's questions, or one session's. */
type Subject = { kind: 'speaker'; speaker: Speaker } | { kind: 'session'; session: Session };

const scopeOf = (subject: Subject): QuestionsScope =>
  subject.kind === 'speaker'
    ? { kind: 'speaker', speakerId: subject.speaker._id }
    : { kind: 'session', sessionId: subject.session._id };

function SubjectHeading({ subject, now }: { subject: Subject; now: number }) {
  const t = useT();
  const speaker = subject.kind === 'speaker' ? subject.speaker : null;
  const title = speaker ? speaker.name : subject.kind === 'session' ? subject.session.title : '';
  const detail = speaker
    ? speaker.stack
    : subject.kind === 'session'
      ? whenOf(t, subject.session, now)
      : '';
  return (
    <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 220px' }}>
      {speaker ? (
        <Avatar
          src={speaker.avatar}
          alt=""
          name={speaker.name}
          color="initials"
          size="lg"
          radius="xl"
        />
      ) : (
        <Avatar size="lg" radius="xl" color="green" aria-hidden>
          <IconPresentation size={26} />
        </Avatar>
      )}
      <Box miw={0}>
        <Title order={2} fz="lg" lineClamp={1} dir="auto">
          {title}
        </Title>
        {/* A speaker's stack is their own text; a session's time, the screen's. */}
        <Text size="sm" c="dimmed" lineClamp={1} dir={speaker ? 'auto' : undefined}>
          {detail}
        </Text>
      </Box>
    </Group>
  );
}

function ChatPanel({
  subject,
  onBack,
  sessionAside,
}: {
  subject: Subject;
  onBack: () => void;
  sessionAside?: ((sessionId: string) => ReactNode) | undefined;
}) {
  const t = useT();
  const [username] = useStoredUsername();
  const own = useOwnQuestionIds();
  const now = useNow();
  const scope = scopeOf(subject);
  const subjectId = subject.kind === 'speaker' ? subject.speaker._id : subject.session._id;
  const questions = useQuestions(scope);
  const viewport = useRef<HTMLDivElement>(null);
  const data = questions.data ?? NO_QUESTIONS;
  // The first render draws the end of the log, as the server did; the whole log follows in the
  // background, above it (decision 253).
  const [firstDrawn] = useState(() => tailOfLog(data, SERVER_QUESTIONS));
  // The questions render in slices, between which the page stays responsive: a hundred of them
  // arriving at once would otherwise hold the main thread in one long task (decision 074).
  const list = useDeferredValue(data, firstDrawn);
  const newestId = list.at(-1)?._id;
  // The room opens as the spec's chat; Recent (newest first) and Top read from the top.
  const [order, setOrder] = useState<QuestionOrder>('chat');
  const arranged = arrangeQuestions(list, order);
  // With no window (the server's render, decision 185), only what the log shows first.
  const { pinned, open, answered } =
    typeof window === 'undefined' ? endOfLog(arranged, SERVER_QUESTIONS) : arranged;

  // New questions arrive at the bottom, as in a chat: keep the newest in view (Chat); Recent
  // and Top start at the top, where the newest or most wanted question is. The log is laid out from its end
  // (`.log`), so it opens at the bottom before any script: its offsets run from minus its
  // height at the top to 0 at the bottom, and each target below is clamped to one of them.
  // Not when the log first opens in Chat: it is at its end already, and asking the browser for
  // the log's height would lay out every question in the screen's first long task.
  const opened = useRef(false);
  useEffect(() => {
    const element = viewport.current;
    const first = !opened.current;
    opened.current = true;
    if (element && !(first && order === 'chat')) {
      element.scrollTo({ top: order === 'chat' ? element.scrollHeight : -element.scrollHeight });
    }
  }, [newestId, subjectId, order]);
  const earlier = (
    <OlderQuestionsButton scope={scope} held={list.length} variant="subtle" size="sm">
      {t('qa.showEarlier')}
    </OlderQuestionsButton>
  );
  const bubble = (question: Question) => (
    <QuestionBubble
      key={question._id}
      question={question}
      mine={isOwnQuestion(question, username, own)}
      canVote={Boolean(username)}
    />
  );

  return (
    <>
      <Box className={classes.columnHeader}>
        <Button
          variant="subtle"
          leftSection={<IconArrowLeft size={18} className="confab-flip-rtl" />}
          hiddenFrom="sm"
          onClick={onBack}
          px={6}
          mb={6}
        >
          {t('qa.back')}
        </Button>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <SubjectHeading subject={subject} now={now} />
          {/* On a narrow phone with many askers, "Ask" takes a row of its own, in view. */}
          <Group gap="sm" wrap="wrap" className={classes.headerActions}>
            <QuestionOrderControl size="xs" value={order} onChange={setOrder} withChat />
            <AskerAvatars questions={list} />
            {username && (
              <AskQuestionButton
                {...(subject.kind === 'speaker'
                  ? { speakerId: subject.speaker._id }
                  : { sessionId: subject.session._id })}
                label={t('qa.askShort')}
                size="sm"
                variant="light"
              />
            )}
          </Group>
        </Group>
      </Box>
      {subject.kind === 'session' && sessionAside && (
        <div className={classes.sessionAside}>{sessionAside(subject.session._id)}</div>
      )}
      <div
        className={`${classes.scroll} ${classes.log}`}
        ref={viewport}
        // The log scrolls by keyboard too: it takes focus, as its questions have nothing that does.
        tabIndex={0}
        role="log"
        aria-label={t('qa.questions')}
      >
        <Stack gap="sm" className={classes.messages}>
          {questions.isPending || (list.length === 0 && (questions.data?.length ?? 0) > 0) ? (
            <Center p="xl">
              <Loader aria-label={t('qa.loadingQuestions')} />
            </Center>
          ) : list.length === 0 ? (
            <NoQuestions
              py="xl"
              title={t('qa.noQuestionsYet')}
              description={username ? t('qa.beFirst') : undefined}
            />
          ) : (
            <>
              {order !== 'recent' && earlier}
              {pinned && bubble(pinned)}
              {open.map(bubble)}
              {answered.length > 0 && (
                <Title order={3} fz="sm" c="dimmed" className={classes.sectionTitle}>
                  {t('qa.answered')}
                </Title>
              )}
              {answered.map(bubble)}
              {/* Newest first, the earlier questions come last. */}
              {order === 'recent' && earlier}
            </>
          )}
        </Stack>
      </div>
    </>
  );
}

export interface QaRoomScreenProps {
  /**
   * What a talk's chat shows above its questions: the parts of other features that belong to a
   * session (its polls), composed by the route.
   */
  sessionAside?: (sessionId: string) => ReactNode;
}

/**
 * /speakerscard, the Q&A room: "Select Speakers" on one side, the chosen speaker's questions as
 * a chat on the other, live. On a phone one side shows at a time, with a Back button.
 */
export default function QaRoomScreen({ sessionAside }: QaRoomScreenProps = {}) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const sessionId = params.get('session');
  const selectedId = sessionId ? null : params.get('speaker');
  const speakers = useSpeakersCard();
  const schedule = useSchedule();
  const now = useNow();
  const { onNow, later } = todaysSessions(schedule.data, now);
  const selectedSession = sessionId
    ? (schedule.data?.sessions.find((session) => session._id === sessionId) ?? null)
    : null;
  const selectedSpeaker = speakers.data?.find((speaker) => speaker._id === selectedId) ?? null;
  const subject: Subject | null = selectedSession
    ? { kind: 'session', session: selectedSession }
    : selectedSpeaker
      ? { kind: 'speaker', speaker: selectedSpeaker }
      : null;
  const selectedAny = sessionId ?? selectedId;
  // The talk opened is the one the attendee follows: /home shows its polls (decision 229).
  const [, follow] = useFollowedSession();
  const followedId = selectedSession?._id;
  useEffect(() => {
    if (followedId) follow(followedId);
  }, [followedId, follow]);
  const pending = sessionId ? schedule.isPending : speakers.isPending;
  useLiveQuestions(
    selectedSession
      ? { room: 'session', sessionId: selectedSession._id }
      : selectedSpeaker
        ? { room: 'speaker', speakerId: selectedSpeaker._id }
        : null,
  );

  const back = () => {
    // Back to the list the way the phone's own back gesture would, when we came from it.
    if ((location.state as { fromList?: boolean } | null)?.fromList) void navigate(-1);
    else setParams({}, { replace: true });
  };

  return (
    <Box className={classes.room} data-selected={selectedAny ? '' : undefined}>
      {/* On a phone only one panel shows, so the room's own heading cannot be either panel's. */}
      <HiddenPageHeading>{t('qa.roomHeading')}</HiddenPageHeading>
      <Paper withBorder radius="lg" className={`${classes.column} ${classes.list}`}>
        <Group className={classes.columnHeader} gap="xs" justify="space-between">
          <Title order={2} fz="lg">
            {t('qa.selectSpeakers')}
          </Title>
          {speakers.data && speakers.data.length > 0 && (
            <Group gap={4} c="dimmed">
              <IconUsers size={16} aria-hidden />
              <Text size="sm" aria-label={t('qa.speakersCount', { count: speakers.data.length })}>
                {speakers.data.length}
              </Text>
            </Group>
          )}
        </Group>
        <div className={classes.scroll}>
          <SessionList sessions={[...onNow, ...later]} selectedId={sessionId} now={now} />
          <SpeakerList speakers={speakers} selectedId={selectedId} />
        </div>
      </Paper>
      <Paper
        withBorder
        radius="lg"
        className={`${classes.column} ${classes.panel}`}
        component="section"
        aria-label={
          subject
            ? t('qa.questionsFor', {
                name: subject.kind === 'speaker' ? subject.speaker.name : subject.session.title,
              })
            : t('qa.questions')
        }
      >
        {subject ? (
          <VotesProvider>
            <ChatPanel
              key={subject.kind === 'speaker' ? subject.speaker._id : subject.session._id}
              subject={subject}
              onBack={back}
              sessionAside={sessionAside}
            />
          </VotesProvider>
        ) : selectedAny && !pending ? (
          <Stack p="md">
            <Button
              variant="subtle"
              leftSection={<IconArrowLeft size={18} className="confab-flip-rtl" />}
              hiddenFrom="sm"
              onClick={back}
              w="fit-content"
            >
              {t('qa.back')}
            </Button>
            <EmptyState
              py="xl"
              title={sessionId ? t('qa.talkNotFound') : t('qa.speakerNotFound')}
              description={sessionId ? t('qa.talkNotFoundHint') : t('qa.speakerNotFoundHint')}
            >
              <EmptyState.Actions>
                <Button component={Link} to={CLIENT_PATHS.speakersCard} variant="light">
                  {t('qa.seeAllSpeakers')}
                </Button>
              </EmptyState.Actions>
            </EmptyState>
          </Stack>
        ) : (
          <Center h="100%" p="xl">
            {selectedAny ? (
              <Loader aria-label={t('qa.loadingLabel')} />
            ) : (
              <EmptyState
                icon={<IconMicrophone size={28} />}
                withIndicatorBackground
                title={t('qa.selectSpeakerPrompt')}
              />
            )}
          </Center>
        )}
      </Paper>
    </Box>
  );
}

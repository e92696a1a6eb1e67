import { Center, EmptyState } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconMoodSad } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useParams } from 'react-router';
import { sessionPath } from '../../../shared/routes.ts';
import type { Room, Schedule, Session } from '../../../shared/schemas/programme.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { useSchedule } from '../../features/programme/api/get-schedule.ts';
import { useSession } from '../../features/programme/api/get-session.ts';
import { useRoomNow } from '../../features/programme/use-room-now.ts';
import { AnnouncementBanner } from '../../features/announcements/announcement-banner.tsx';
import {
  OverlayView,
  PresenterView,
  ProjectorLoading,
  ProjectorPage,
  ScreenControls,
  useTransparentPage,
} from '../../features/questions/presenter-view.tsx';
import { StagePoll } from '../../features/polls/stage-poll.tsx';
import { useSessionQuestions } from '../../features/questions/use-question-lists.ts';
import { ReactionBurst } from '../../features/reactions/reaction-burst.tsx';
import { useMessages, useT } from '../../i18n/language.ts';
import { formatTimeRange, formatZonedDay, formatZonedTime } from '../../lib/format-time.ts';
import classes from './projector-route.module.css';

type Mode = 'room' | 'session' | 'overlay';

/** Where a session's QR code leads: its page, where a phone asks that talk. */
const askUrl = (session: Session) => `${window.location.origin}${sessionPath(session._id)}`;

/** The speakers of a session, each name in its own direction. */
function SpeakerNames({ speakers }: { speakers: readonly Speaker[] | undefined }) {
  if (!speakers?.length) return null;
  return (
    <>
      {speakers.map((speaker, index) => (
        <Fragment key={speaker._id}>
          {index > 0 && ', '}
          <bdi>{speaker.name}</bdi>
        </Fragment>
      ))}
    </>
  );
}

function NotFound({ text }: { text: string }) {
  return (
    <Center mih="100dvh">
      <EmptyState icon={<IconMoodSad size={28} />} withIndicatorBackground>
        <EmptyState.Title order={1}>{text}</EmptyState.Title>
      </EmptyState>
    </Center>
  );
}

/**
 * A session on the projector or in the overlay: its title, room and time, its speakers, its
 * pinned and top questions live, its open (or last revealed) poll, the room's reactions in
 * their own lane, and the QR code to its page.
 */
function SessionPresenter({
  session,
  room,
  timeZone,
  overlay,
}: {
  session: Session;
  room: Room | undefined;
  timeZone: string;
  overlay: boolean;
}) {
  const t = useT();
  const speakers = useSession(session._id).data?.speakers;
  const questions = useSessionQuestions(session._id);
  const when = formatTimeRange(session.startsAt, session.endsAt, timeZone);
  const names = <SpeakerNames speakers={speakers} />;
  if (overlay) {
    return (
      <OverlayView
        label={t('projector.overlayLabel', { title: session.title })}
        title={session.title}
        details={
          <>
            {names}
            {speakers?.length ? ' · ' : ''}
            {room && <bdi>{room.name}</bdi>} · {when}
          </>
        }
        questions={questions.questions}
        askLink={askUrl(session)}
        poll={<StagePoll scope={{ sessionId: session._id }} overlay />}
        lane={<ReactionBurst sessionId={session._id} />}
      />
    );
  }
  return (
    <PresenterView
      label={t('projector.presenterLabel', { title: session.title })}
      eyebrow={
        <>
          {room && <bdi>{room.name}</bdi>} · {when}
          {session.cancelled && (
            <span className={classes.cancelled}>{t('projector.cancelled')}</span>
          )}
        </>
      }
      title={session.title}
      details={names}
      questions={questions.questions}
      askLink={askUrl(session)}
      aside={
        <>
          <ReactionBurst sessionId={session._id} />
          <StagePoll scope={{ sessionId: session._id }} />
        </>
      }
    />
  );
}

/**
 * Between talks: what is next in this room, when, by whom, and the QR code to ask it already;
 * an open poll of the whole event beside it (decision 231).
 */
function NextTalk({ room, session, timeZone }: { room: Room; session: Session; timeZone: string }) {
  const t = useT();
  const speakers = useSession(session._id).data?.speakers;
  return (
    <ProjectorPage
      label={t('projector.roomLabel', { room: room.name })}
      title={room.name}
      askLink={askUrl(session)}
      aside={<StagePoll scope={{ sessionId: null }} openOnly />}
    >
      <section className={classes.next} aria-label={t('projector.nextSession')}>
        <div className={classes.nextLabel}>{t('projector.next')}</div>
        <h2 className={classes.nextTitle} dir="auto">
          {session.title}
        </h2>
        <div className={classes.nextWhen}>
          {t('projector.at', { time: formatZonedTime(session.startsAt, timeZone) })}
        </div>
        {speakers?.length ? (
          <div className={classes.nextSpeakers}>
            <SpeakerNames speakers={speakers} />
          </div>
        ) : null}
      </section>
    </ProjectorPage>
  );
}

/** After the day's last talk: a calm screen, and the next day's first talk if there is one. */
function EndOfDay({
  room,
  next,
  timeZone,
}: {
  room: Room;
  next: Session | undefined;
  timeZone: string;
}) {
  const { t, rich } = useMessages();
  return (
    <main className={classes.calm} aria-label={t('projector.roomLabel', { room: room.name })}>
      <div className={classes.calmControls}>
        <ScreenControls />
      </div>
      <div className={classes.calmRoom} dir="auto">
        {room.name}
      </div>
      <h1 className={classes.calmTitle}>
        {next ? t('projector.endOfDay') : t('projector.endOfProgramme')}
      </h1>
      {next && (
        <p className={classes.calmNext}>
          {rich('projector.nextTitle', {
            title: <bdi className={classes.calmNextTitle}>{next.title}</bdi>,
          })}
          <br />
          {t('projector.onDayAt', {
            day: formatZonedDay(next.startsAt, timeZone),
            time: formatZonedTime(next.startsAt, timeZone),
          })}
        </p>
      )}
    </main>
  );
}

/**
 * /rooms/:id/present: the room's projector. It follows the clock (`useRoomNow`): the session on
 * now, what is next between talks, a calm end after the day's last one; live on the programme.
 */
function RoomProjector({ roomId, schedule }: { roomId: string; schedule: Schedule | undefined }) {
  const shown = useRoomNow(schedule, roomId);
  // The talk on now, or the next one: a room's announcements reach its sessions' watchers.
  const sessionId = shown && shown.kind !== 'ended' ? shown.session._id : undefined;
  return (
    <>
      <AnnouncementBanner
        size="projector"
        room={sessionId ? { room: 'session', sessionId } : null}
      />
      <RoomScreen roomId={roomId} schedule={schedule} shown={shown} />
    </>
  );
}

function RoomScreen({
  roomId,
  schedule,
  shown,
}: {
  roomId: string;
  schedule: Schedule | undefined;
  shown: ReturnType<typeof useRoomNow>;
}) {
  const t = useT();
  const room = schedule?.rooms.find((item) => item._id === roomId);
  useDocumentTitle(room ? t('projector.roomTitle', { room: room.name }) : '');
  if (!schedule || !shown) return <ProjectorLoading />;
  if (!room) return <NotFound text={t('projector.roomNotFound')} />;
  if (shown.kind === 'on') {
    return (
      <SessionPresenter
        key={shown.session._id}
        session={shown.session}
        room={room}
        timeZone={schedule.timezone}
        overlay={false}
      />
    );
  }
  if (shown.kind === 'next') {
    return <NextTalk room={room} session={shown.session} timeZone={schedule.timezone} />;
  }
  return <EndOfDay room={room} next={shown.next} timeZone={schedule.timezone} />;
}

/** /sessions/:id/present and /overlay/sessions/:id: one session, whatever the clock. */
function OneSession({
  sessionId,
  schedule,
  overlay,
}: {
  sessionId: string;
  schedule: Schedule | undefined;
  overlay: boolean;
}) {
  const t = useT();
  const session = useSession(sessionId);
  useDocumentTitle(session.data?.title ?? '');
  if (session.isError && !session.data) return <NotFound text={t('projector.sessionNotFound')} />;
  // Over a video, nothing shows until there is something to show.
  if (!session.data || !schedule) return overlay ? null : <ProjectorLoading />;
  // The programme's copy is the one `scheduleUpdated` refreshes first.
  const current = schedule.sessions.find((item) => item._id === sessionId) ?? session.data;
  return (
    <SessionPresenter
      session={current}
      room={schedule.rooms.find((room) => room._id === current.roomId)}
      timeZone={schedule.timezone}
      overlay={overlay}
    />
  );
}

/** Makes the page transparent, for the overlay only. */
function TransparentPage() {
  useTransparentPage();
  return null;
}

/**
 * The projectors that follow the programme (decision 226): a room's (`room`), one session's
 * (`session`) and the streaming overlay (`overlay`, on a transparent page).
 */
export default function ProjectorRoute({ mode }: { mode: Mode }) {
  const { id = '' } = useParams();
  const schedule = useSchedule().data;
  return (
    <>
      {mode === 'overlay' && <TransparentPage />}
      {mode === 'session' && (
        <AnnouncementBanner size="projector" room={{ room: 'session', sessionId: id }} />
      )}
      {mode === 'room' ? (
        <RoomProjector roomId={id} schedule={schedule} />
      ) : (
        <OneSession key={id} sessionId={id} schedule={schedule} overlay={mode === 'overlay'} />
      )}
    </>
  );
}

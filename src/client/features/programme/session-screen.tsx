import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCalendarEvent,
  IconClock,
  IconMapPin,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { SessionWithSpeakers } from '../../../shared/schemas/programme.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { useMessages, useT } from '../../i18n/language.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatTimeRange, formatZonedDay, timeZoneLabel } from '../../lib/format-time.ts';
import { useSchedule } from './api/get-schedule.ts';
import { useSession } from './api/get-session.ts';
import classes from './programme.module.css';

function BackToSchedule() {
  const t = useT();
  return (
    <Button
      component={Link}
      to={CLIENT_PATHS.schedule}
      variant="subtle"
      leftSection={<IconArrowLeft size={18} className="confab-flip-rtl" />}
      px={6}
      w="fit-content"
    >
      {t('programme.schedule')}
    </Button>
  );
}

/** A speaker of the session: picture (or initials), name, stack and bio. */
function SpeakerProfile({ speaker }: { speaker: Speaker }) {
  return (
    <Paper component="article" withBorder radius="lg" p="md" aria-label={speaker.name}>
      <Group gap="md" align="flex-start" wrap="nowrap">
        <Avatar
          src={speaker.avatar ?? (speaker.picture || null)}
          alt=""
          name={speaker.name}
          color="initials"
          size="lg"
          radius="xl"
          className={classes.speakerPicture}
        />
        <Stack gap={4} miw={0}>
          <Text fw={700} dir="auto" className={classes.text}>
            {speaker.name}
          </Text>
          {speaker.stack && (
            <Text size="sm" c="dimmed" dir="auto" className={classes.text}>
              {speaker.stack}
            </Text>
          )}
          {speaker.bio && (
            <Text size="sm" dir="auto" className={classes.abstract}>
              {speaker.bio}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The talk itself: title, when and where (in the event's time zone), track, abstract, speakers. */
function SessionDetails({
  session,
  timezone,
  roomName,
}: {
  session: SessionWithSpeakers;
  timezone: string;
  roomName: string | undefined;
}) {
  const { t, rich } = useMessages();
  const day = formatZonedDay(session.startsAt, timezone);
  const time = formatTimeRange(session.startsAt, session.endsAt, timezone);
  return (
    <Stack gap="md" component="article" aria-labelledby="session-title">
      <BackToSchedule />
      <Stack gap="xs">
        {session.cancelled && (
          <Badge color="red" variant="light" w="fit-content">
            {t('programme.cancelled')}
          </Badge>
        )}
        <Title
          order={1}
          id="session-title"
          dir="auto"
          fz={{ base: 'h2', sm: 'h1' }}
          className={`${classes.text} ${session.cancelled ? classes.cancelled : ''}`}
        >
          {session.title}
        </Title>
        <Group gap="xs" c="dimmed">
          <IconClock size={18} aria-hidden />
          <Text fw={600}>
            {rich('programme.dayAndTime', {
              day,
              time: <time dateTime={session.startsAt}>{time}</time>,
            })}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('programme.timesIn', { zone: timeZoneLabel(timezone, Date.parse(session.startsAt)) })}
        </Text>
        <Group gap={6}>
          {roomName && (
            <Badge
              variant="default"
              tt="none"
              leftSection={<IconMapPin size={12} aria-hidden />}
              maw="100%"
            >
              <bdi>{roomName}</bdi>
            </Badge>
          )}
          {session.track && (
            <Badge variant="light" tt="none" maw="100%">
              <bdi>{session.track}</bdi>
            </Badge>
          )}
        </Group>
      </Stack>
      {session.abstract && (
        <Text dir="auto" className={classes.abstract}>
          {session.abstract}
        </Text>
      )}
      {session.speakers.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="session-speakers">
          <Title order={2} fz="h4" id="session-speakers">
            {t('programme.speakers', { count: session.speakers.length })}
          </Title>
          {session.speakers.map((speaker) => (
            <SpeakerProfile key={speaker._id} speaker={speaker} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export interface SessionScreenProps {
  id: string;
  /**
   * What the page shows beside the talk (below it on a phone): the parts of other features that
   * belong to a session, composed by the route.
   */
  aside?: (session: SessionWithSpeakers) => ReactNode;
}

/** /sessions/:id: a talk and, beside it, what the route puts there (its Q&A). Live. */
export function SessionScreen({ id, aside }: SessionScreenProps) {
  const t = useT();
  const session = useSession(id);
  const schedule = useSchedule();
  const gone = session.error instanceof ApiError && session.error.status < 500;

  // The times wait for the event's time zone (the schedule's): never shown in another first.
  if (session.isPending || (schedule.isPending && !gone)) {
    return (
      <Center p="xl" mih="50vh">
        <Loader aria-label={t('programme.loadingSession')} />
      </Center>
    );
  }
  if (gone || !session.data) {
    return (
      <Stack pt="lg" maw={760} mx="auto">
        <BackToSchedule />
        {gone ? (
          <EmptyState
            py="xl"
            icon={<IconCalendarEvent size={28} />}
            withIndicatorBackground
            title={t('programme.sessionNotFound')}
            description={t('programme.sessionGone')}
          >
            <EmptyState.Actions>
              <Button component={Link} to={CLIENT_PATHS.schedule} variant="light">
                {t('programme.seeSchedule')}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        ) : (
          <Alert color="red" icon={<IconAlertTriangle />} title={t('programme.sessionLoadFailed')}>
            {t('programme.retrying')}{' '}
            <Anchor component={Link} to={CLIENT_PATHS.schedule}>
              {t('programme.backToSchedule')}
            </Anchor>
          </Alert>
        )}
      </Stack>
    );
  }

  const data = session.data;
  const timezone = schedule.data?.timezone ?? 'UTC';
  const roomName = schedule.data?.rooms.find((room) => room._id === data.roomId)?.name;
  return (
    <div className={classes.sessionLayout}>
      <SessionDetails session={data} timezone={timezone} roomName={roomName} />
      {aside && <Stack gap="lg">{aside(data)}</Stack>}
    </div>
  );
}

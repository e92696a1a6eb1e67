import {
  Alert,
  Button,
  Center,
  EmptyState,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCalendarEvent } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Schedule } from '../../../shared/schemas/programme.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import {
  formatZonedDay,
  formatZonedTime,
  timeZoneLabel,
  zonedDayKey,
} from '../../lib/format-time.ts';
import { useT } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useQuestions } from '../questions/api/get-questions.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { useSchedule } from './api/get-schedule.ts';
import {
  askedBySession,
  daySlots,
  defaultDay,
  nowAndNext,
  programmeDays,
  roomsById,
} from './programme-view.ts';
import { SessionCard } from './session-card.tsx';
import { useNow } from '../../lib/use-now.ts';
import classes from './programme.module.css';

const NO_SPEAKERS: Speaker[] = [];
/** The rooms "Now and next" shows before "Show all rooms". */
const ROOMS_AT_FIRST = 6;

/** The speakers' names of a session, in its order; an unknown id (just deleted) is skipped. */
const namesOf = (ids: readonly string[], speakers: ReadonlyMap<string, string>) =>
  ids.flatMap((id) => {
    const name = speakers.get(id);
    return name === undefined ? [] : [name];
  });

/** "Now and next": per room, the session on now and the next one. */
function NowAndNext({
  schedule,
  now,
  speakers,
  asked,
}: {
  schedule: Schedule;
  now: number;
  speakers: ReadonlyMap<string, string>;
  asked: ReadonlyMap<string, number>;
}) {
  const t = useT();
  const [allRooms, setAllRooms] = useState(false);
  const rows = nowAndNext(schedule, now);
  if (rows.length === 0) return null;
  // A big venue's thirty rooms would push the day's programme far down: the first few, then all
  // on request.
  const shown = allRooms ? rows : rows.slice(0, ROOMS_AT_FIRST);
  const today = zonedDayKey(now, schedule.timezone);
  return (
    <Stack component="section" gap="sm" aria-labelledby="now-and-next">
      <Title order={2} fz="h3" id="now-and-next">
        {t('programme.nowAndNext')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {shown.map(({ room, now: on, next }) => (
          <Paper
            key={room._id}
            component="section"
            withBorder
            radius="lg"
            p="sm"
            aria-label={room.name}
          >
            <Stack gap="xs">
              <Title order={3} fz="md" dir="auto" className={classes.text}>
                {room.name}
              </Title>
              {on && (
                <SessionCard
                  session={on}
                  timezone={schedule.timezone}
                  speakerNames={namesOf(on.speakerIds, speakers)}
                  asked={asked.get(on._id)}
                  label={t('programme.now')}
                />
              )}
              {next && (
                <SessionCard
                  session={next}
                  timezone={schedule.timezone}
                  speakerNames={namesOf(next.speakerIds, speakers)}
                  asked={asked.get(next._id)}
                  // A next talk on a later day says which.
                  label={
                    zonedDayKey(next.startsAt, schedule.timezone) === today
                      ? t('programme.next')
                      : t('programme.nextOnDay', {
                          day: formatZonedDay(next.startsAt, schedule.timezone),
                        })
                  }
                />
              )}
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      {shown.length < rows.length && (
        <Button variant="light" onClick={() => setAllRooms(true)} w="fit-content">
          {t('programme.showAllRooms', { count: rows.length })}
        </Button>
      )}
    </Stack>
  );
}

/** One day of the programme: its time slots, each with its talks and their rooms. */
function DayProgramme({
  schedule,
  day,
  speakers,
  asked,
}: {
  schedule: Schedule;
  day: string;
  speakers: ReadonlyMap<string, string>;
  asked: ReadonlyMap<string, number>;
}) {
  const rooms = roomsById(schedule);
  const slots = daySlots(schedule, day);
  return (
    <Stack gap="md">
      {slots.map((slot) => (
        <div key={slot.startsAt} className={classes.slot}>
          <Text fw={800} fz="lg" className={classes.slotTime}>
            <time dateTime={slot.startsAt}>
              {formatZonedTime(slot.startsAt, schedule.timezone)}
            </time>
          </Text>
          <SimpleGrid cols={{ base: 1, md: slot.sessions.length > 1 ? 2 : 1 }} spacing="sm">
            {slot.sessions.map((session) => (
              <SessionCard
                key={session._id}
                session={session}
                timezone={schedule.timezone}
                roomName={rooms.get(session.roomId)?.name}
                speakerNames={namesOf(session.speakerIds, speakers)}
                asked={asked.get(session._id)}
              />
            ))}
          </SimpleGrid>
        </div>
      ))}
    </Stack>
  );
}

/**
 * /schedule: "Now and next" per room, then the day's programme by start time (tabs for the
 * days when there are several, today's first), every time in the event's time zone, named once.
 * Live: an edit or a re-import of the programme reaches the open page (`scheduleUpdated`).
 */
export default function ScheduleScreen() {
  const t = useT();
  const schedule = useSchedule();
  const now = useNow();
  const [username] = useStoredUsername();
  const speakersQuery = useSpeakersCard();
  // The attendee's own questions: where they asked, the programme says so.
  const mine = useQuestions(username ? { kind: 'asker', username } : null);
  const [params, setParams] = useSearchParams();

  const speakerList = speakersQuery.data ?? NO_SPEAKERS;
  const speakers = useMemo(
    () => new Map(speakerList.map((speaker) => [speaker._id, speaker.name])),
    [speakerList],
  );
  const data = schedule.data;
  const asked = useMemo(
    () => (data && mine.data ? askedBySession(data, mine.data) : new Map<string, number>()),
    [data, mine.data],
  );
  const days = useMemo(() => (data ? programmeDays(data) : []), [data]);

  if (schedule.isPending) {
    return (
      <Center p="xl" mih="50vh">
        <Loader aria-label={t('programme.loadingSchedule')} />
      </Center>
    );
  }
  if (!data) {
    return (
      <Stack pt="lg" maw={960} mx="auto">
        <Title order={1}>{t('programme.schedule')}</Title>
        <Alert color="red" icon={<IconAlertTriangle />} title={t('programme.scheduleLoadFailed')}>
          {t('programme.retrying')}
        </Alert>
      </Stack>
    );
  }

  const today = zonedDayKey(now, data.timezone);
  const chosen = params.get('day');
  const day = chosen && days.includes(chosen) ? chosen : defaultDay(days, today);
  const chooseDay = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('day', value);
        return next;
      },
      { replace: true },
    );
  // The zone's short name on the day shown (it changes with daylight-saving time).
  const labelAt = day ? Date.parse(`${day}T12:00:00Z`) : now;

  return (
    <Stack gap="lg" pt="lg" maw={960} mx="auto">
      <Stack gap={4}>
        <Title order={1}>{t('programme.schedule')}</Title>
        <Text size="sm" c="dimmed">
          {t('programme.timesIn', { zone: timeZoneLabel(data.timezone, labelAt) })}
        </Text>
      </Stack>

      {days.length === 0 || !day ? (
        <EmptyState
          py="xl"
          icon={<IconCalendarEvent size={28} />}
          withIndicatorBackground
          title={t('programme.emptyTitle')}
          description={t('programme.emptyDescription')}
        />
      ) : (
        <>
          <NowAndNext schedule={data} now={now} speakers={speakers} asked={asked} />
          <Stack component="section" gap="sm" aria-labelledby="programme">
            <Title order={2} fz="h3" id="programme">
              {days.length > 1
                ? t('programme.programme')
                : t('programme.programmeOnDay', { day: formatZonedDay(`${day}T12:00:00Z`, 'UTC') })}
            </Title>
            {days.length > 1 ? (
              <Tabs value={day} onChange={chooseDay} keepMounted={false}>
                <Tabs.List className={classes.days} aria-label={t('programme.days')}>
                  {days.map((item) => (
                    <Tabs.Tab key={item} value={item}>
                      {item === today
                        ? t('programme.dayToday', {
                            day: formatZonedDay(`${item}T12:00:00Z`, 'UTC'),
                          })
                        : formatZonedDay(`${item}T12:00:00Z`, 'UTC')}
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
                {days.map((item) => (
                  <Tabs.Panel key={item} value={item} pt="md">
                    <DayProgramme schedule={data} day={item} speakers={speakers} asked={asked} />
                  </Tabs.Panel>
                ))}
              </Tabs>
            ) : (
              <DayProgramme schedule={data} day={day} speakers={speakers} asked={asked} />
            )}
          </Stack>
        </>
      )}
    </Stack>
  );
}

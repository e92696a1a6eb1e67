import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconMapPin, IconMessageCircleQuestion } from '@tabler/icons-react';
import { Link } from 'react-router';
import { sessionPath } from '../../../shared/routes.ts';
import type { Session } from '../../../shared/schemas/programme.ts';
import { useT } from '../../i18n/language.ts';
import { formatTimeRange } from '../../lib/format-time.ts';
import classes from './programme.module.css';

export interface SessionCardProps {
  session: Session;
  timezone: string;
  /** The room's name, or undefined when the card is under its room already. */
  roomName?: string | undefined;
  /** The speakers' names, in the programme's order. */
  speakerNames: readonly string[];
  /** How many questions the attendee asked in it. */
  asked?: number | undefined;
  /** "Now" or "Next", on the now-and-next cards, which keep the title to two lines. */
  label?: string | undefined;
}

/**
 * One session as the programme lists it, a link to its page: the time range in the event's time
 * zone, the title, the room, the track, the speakers; a cancelled one struck through.
 */
export function SessionCard({
  session,
  timezone,
  roomName,
  speakerNames,
  asked = 0,
  label,
}: SessionCardProps) {
  const t = useT();
  const time = formatTimeRange(session.startsAt, session.endsAt, timezone);
  return (
    <Paper
      component={Link}
      to={sessionPath(session._id)}
      withBorder
      radius="md"
      p="sm"
      className={classes.card}
    >
      <Stack gap={6}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Text size="sm" fw={600} c="dimmed" className={classes.text}>
            {label && (
              <Text span fw={800} c="var(--mantine-color-anchor)" tt="uppercase" fz="xs">
                {label}{' '}
              </Text>
            )}
            <time dateTime={session.startsAt}>{time}</time>
          </Text>
          {session.cancelled && (
            <Badge color="red" variant="light" size="sm" style={{ flexShrink: 0 }}>
              {t('programme.cancelled')}
            </Badge>
          )}
        </Group>
        <Text
          fw={700}
          dir="auto"
          className={`${classes.text} ${session.cancelled ? classes.cancelled : ''}`}
          c={session.cancelled ? 'dimmed' : undefined}
          lineClamp={label ? 2 : undefined}
          title={label ? session.title : undefined}
        >
          {session.title}
        </Text>
        {speakerNames.length > 0 && (
          <Text size="sm" className={classes.text}>
            {speakerNames.map((name, index) => (
              <span key={`${index}-${name}`}>
                {index > 0 && ', '}
                <bdi>{name}</bdi>
              </span>
            ))}
          </Text>
        )}
        {(roomName || session.track || asked > 0) && (
          <Group gap={6}>
            {roomName && (
              <Badge
                variant="default"
                size="sm"
                tt="none"
                leftSection={<IconMapPin size={12} aria-hidden />}
                maw="100%"
              >
                <bdi>{roomName}</bdi>
              </Badge>
            )}
            {session.track && (
              <Badge variant="light" size="sm" tt="none" maw="100%">
                <bdi>{session.track}</bdi>
              </Badge>
            )}
            {asked > 0 && (
              <Badge
                variant="filled"
                size="sm"
                tt="none"
                leftSection={<IconMessageCircleQuestion size={12} aria-hidden />}
              >
                {t('programme.youAsked', { count: asked })}
              </Badge>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

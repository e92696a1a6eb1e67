import { Badge, Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ANNOUNCEMENT_LIMITS, type Announcement } from '../../../shared/schemas/announcement.ts';
import type { Schedule } from '../../../shared/schemas/programme.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { formatZonedTime } from '../../lib/format-time.ts';
import { useCreateAnnouncement } from '../announcements/api/create-announcement.ts';
import { useAnnouncements } from '../announcements/api/get-announcements.ts';
import { useSchedule } from '../programme/api/get-schedule.ts';
import { isUnauthorized } from './api/errors.ts';
import { EmptyList, LoadError } from './list-notices.tsx';

const EVERYONE = 'everyone';

/** The audiences offered: everyone, each room, each session (by day, as the programme lists them). */
function audiences(schedule: Schedule | undefined) {
  if (!schedule) return [{ value: EVERYONE, label: 'Everyone' }];
  const roomName = new Map(schedule.rooms.map((room) => [room._id, room.name]));
  return [
    { group: 'Everyone', items: [{ value: EVERYONE, label: 'Everyone' }] },
    {
      group: 'A room (the people at its sessions)',
      items: schedule.rooms.map((room) => ({ value: `room:${room._id}`, label: room.name })),
    },
    {
      group: 'A session (the people following it)',
      items: schedule.sessions
        .filter((session) => !session.cancelled)
        .map((session) => ({
          value: `session:${session._id}`,
          label: `${session.title} · ${roomName.get(session.roomId) ?? ''} ${formatZonedTime(session.startsAt, schedule.timezone)}`,
        })),
    },
  ];
}

/** Who an announcement went to, in words. */
function audienceOf(announcement: Announcement, schedule: Schedule | undefined): string {
  if (announcement.sessionId) {
    const session = schedule?.sessions.find((item) => item._id === announcement.sessionId);
    return `Session: ${session?.title ?? 'deleted'}`;
  }
  if (announcement.roomId) {
    const room = schedule?.rooms.find((item) => item._id === announcement.roomId);
    return `Room: ${room?.name ?? 'deleted'}`;
  }
  return 'Everyone';
}

/**
 * The console's Announcements tab (decision 239): a text of up to 280 characters for everyone, a
 * room or a session, shown at once on the open screens and pushed to subscribed phones; and
 * today's sent announcements.
 */
export function AdminAnnouncements({ token, onExpired }: { token: string; onExpired: () => void }) {
  const schedule = useSchedule().data;
  const announcements = useAnnouncements();
  const create = useCreateAnnouncement(token);
  const [text, setText] = useState('');
  const [audience, setAudience] = useState<string>(EVERYONE);
  const data = useMemo(() => audiences(schedule), [schedule]);
  const trimmed = text.trim();

  const send = () => {
    const [kind, id] = audience.split(':');
    create.mutate(
      {
        text: trimmed,
        ...(kind === 'room' && { roomId: id }),
        ...(kind === 'session' && { sessionId: id }),
      },
      {
        onSuccess: () => {
          setText('');
          toastDone('Announced.');
        },
        onError: (error) => {
          if (isUnauthorized(error)) onExpired();
          else toastFailed(error, 'The announcement could not be sent; try again.');
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="announce-title">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <Stack gap="sm">
            <Title order={2} fz="lg" id="announce-title">
              New announcement
            </Title>
            <Textarea
              label="Announcement"
              description={`${trimmed.length} / ${ANNOUNCEMENT_LIMITS.textMax} characters. Shown at once on every open screen it is for, and sent to phones that turned announcements on.`}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              maxLength={ANNOUNCEMENT_LIMITS.textMax}
              autosize
              minRows={2}
              maxRows={6}
              required
            />
            <Select
              label="For"
              data={data}
              value={audience}
              onChange={(value) => setAudience(value ?? EVERYONE)}
              allowDeselect={false}
              searchable
              nothingFoundMessage="No room or session of that name"
              comboboxProps={{ withinPortal: true }}
            />
            {audience !== EVERYONE && (
              <Text fz="xs" c="dimmed">
                Shown on the screens of that room or session (its projector, the talk’s page);
                phones get a notification only for announcements to everyone.
              </Text>
            )}
            <Group>
              <Button
                type="submit"
                leftSection={<IconSpeakerphone size={18} aria-hidden />}
                loading={create.isPending}
                disabled={trimmed.length === 0}
              >
                Announce
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="announced-title">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="announced-title">
            Sent today
          </Title>
          {announcements.isError && !announcements.data ? (
            <LoadError>The announcements could not load. They are tried again shortly.</LoadError>
          ) : announcements.data?.length === 0 ? (
            <EmptyList icon={IconSpeakerphone}>No announcements today.</EmptyList>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {announcements.data?.map((announcement) => (
                <li key={announcement._id}>
                  <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
                    <Text dir="auto" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                      {announcement.text}
                    </Text>
                    <Stack gap={2} align="flex-end" style={{ flex: 'none' }}>
                      <Badge variant="light">{audienceOf(announcement, schedule)}</Badge>
                      <TimeAgo iso={announcement.createdAt} fz="xs" c="dimmed" />
                    </Stack>
                  </Group>
                </li>
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

import {
  ActionIcon,
  Badge,
  Button,
  Chip,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCalendarPlus, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Room, Session } from '../../../shared/schemas/programme.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { useDeleteSession } from './api/admin-programme.ts';
import { isGone, isUnauthorized } from './api/errors.ts';
import { type ZoneClock, programmeDays } from './programme-times.ts';
import { type SessionDraft, SessionFormModal } from './session-form-modal.tsx';

/** A session's start and end: digits of one width line up. */
const TIMES = { flexShrink: 0, fontVariantNumeric: 'tabular-nums' } as const;

/** One session's row: its times, title, track, speakers, and its Edit and Delete. */
function SessionRow({
  session,
  clock,
  speakerNames,
  onEdit,
  onDelete,
}: {
  session: Session;
  clock: ZoneClock;
  speakerNames: ReadonlyMap<string, string>;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const names = session.speakerIds.flatMap((id) => speakerNames.get(id) ?? []);
  const times = `${clock.wall(session.startsAt).slice(11)}–${clock.wall(session.endsAt).slice(11)}`;
  return (
    <Group
      component="article"
      aria-label={session.title}
      gap="xs"
      wrap="nowrap"
      align="flex-start"
      py={6}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Text fz="sm" c="dimmed" w={96} visibleFrom="sm" style={TIMES}>
        {times}
      </Text>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        {/* On a phone the times sit above the title, which keeps the width. */}
        <Text fz="xs" c="dimmed" hiddenFrom="sm" style={TIMES}>
          {times}
        </Text>
        <Text
          fw={600}
          fz="sm"
          dir="auto"
          td={session.cancelled ? 'line-through' : undefined}
          style={{ overflowWrap: 'anywhere' }}
        >
          {session.title}
        </Text>
        {(names.length > 0 || session.track || session.cancelled) && (
          <Group gap={6}>
            {session.cancelled && (
              <Badge size="xs" color="red" variant="light">
                Cancelled
              </Badge>
            )}
            {session.track && (
              <Badge size="xs" variant="light">
                {session.track}
              </Badge>
            )}
            {names.length > 0 && (
              <Text fz="xs" c="dimmed" dir="auto">
                {names.join(', ')}
              </Text>
            )}
          </Group>
        )}
      </Stack>
      <ActionIcon variant="subtle" size="lg" aria-label={`Edit ${session.title}`} onClick={onEdit}>
        <IconPencil size={18} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        size="lg"
        aria-label={`Delete ${session.title}`}
        onClick={onDelete}
      >
        <IconTrash size={18} />
      </ActionIcon>
    </Group>
  );
}

/**
 * The sessions, one day at a time (in the event's time zone), by room in the rooms' order: add
 * one, edit one in the form, delete one after a confirmation.
 */
export function ProgrammeSessions({
  token,
  onExpired,
  rooms,
  sessions,
  clock,
  timezone,
  now,
}: {
  token: string;
  onExpired: () => void;
  rooms: readonly Room[];
  sessions: readonly Session[];
  clock: ZoneClock;
  timezone: string;
  /** The moment the screen opened: the offset shown until a time is typed. */
  now: number;
}) {
  const days = useMemo(() => programmeDays(rooms, sessions, clock), [rooms, sessions, clock]);
  const speakers = useSpeakersCard();
  const speakerNames = useMemo(
    () => new Map((speakers.data ?? []).map(({ _id, name }) => [_id, name])),
    [speakers.data],
  );
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const [draft, setDraft] = useState<SessionDraft | null>(null);
  const [deleting, setDeleting] = useState<Session | null>(null);
  const remove = useDeleteSession(token);

  const day = days.find(({ key }) => key === chosenDay) ?? days[0];
  const addSession = () =>
    setDraft({
      session: null,
      roomId: rooms[0]?._id ?? null,
      // On the day shown, at nine; on a new programme, today at nine.
      startsAt: `${day?.key ?? clock.wall(Date.now()).slice(0, 10)}T09:00`,
    });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={2} fz="lg" id="sessions-title">
            Sessions
          </Title>
          <Button
            leftSection={<IconCalendarPlus size={18} />}
            onClick={addSession}
            disabled={rooms.length === 0}
          >
            Add session
          </Button>
        </Group>
        <Text fz="sm" c="dimmed">
          Times in {timezone} ({clock.offset(now)}).
          {rooms.length === 0 ? ' Add a room before its sessions.' : ''}
        </Text>
        {days.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            No sessions yet: import a schedule, or add them by hand.
          </Text>
        ) : (
          <>
            {days.length > 1 && (
              <Chip.Group
                multiple={false}
                value={day?.key ?? null}
                onChange={(value) => setChosenDay(value)}
              >
                <Group gap="xs" role="group" aria-label="Day">
                  {days.map(({ key, label }) => (
                    <Chip key={key} value={key}>
                      {label}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
            )}
            {day && (
              <>
                <Title order={3} fz="md">
                  {day.label}
                </Title>
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                  {day.rooms.map(({ room, sessions: list }) => (
                    <Stack key={room._id} gap={0} component="section" aria-label={room.name}>
                      <Text fw={700} fz="sm" tt="uppercase" c="dimmed" pb={4}>
                        {room.name}
                      </Text>
                      {list.map((session) => (
                        <SessionRow
                          key={session._id}
                          session={session}
                          clock={clock}
                          speakerNames={speakerNames}
                          onEdit={() => setDraft({ session })}
                          onDelete={() => setDeleting(session)}
                        />
                      ))}
                    </Stack>
                  ))}
                </SimpleGrid>
              </>
            )}
          </>
        )}
      </Stack>
      <SessionFormModal
        token={token}
        onExpired={onExpired}
        draft={draft}
        rooms={rooms}
        clock={clock}
        timezone={timezone}
        now={now}
        onClose={() => setDraft(null)}
      />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title="Delete this session?"
        quote={deleting?.title}
        confirmLabel="Delete session"
        deleting={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          const session = deleting;
          remove.mutate(session._id, {
            onSuccess: () => toastDone(`Deleted “${session.title}”.`),
            onError: (error) => {
              if (isGone(error)) return;
              if (isUnauthorized(error)) onExpired();
              else toastFailed(error, 'The session could not be deleted; try again.');
            },
            onSettled: () => setDeleting(null),
          });
        }}
      >
        It leaves the programme on every screen. Its questions stay, in no session. This cannot be
        undone.
      </ConfirmDeleteModal>
    </Paper>
  );
}

import {
  ActionIcon,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCheck,
  IconPencil,
  IconPlus,
  IconPresentation,
  IconTrash,
} from '@tabler/icons-react';
import { type SubmitEvent, useState } from 'react';
import {
  PROGRAMME_LIMITS,
  type Room,
  roomCreateSchema,
} from '../../../shared/schemas/programme.ts';
import { roomPresentPath } from '../../../shared/routes.ts';
import {
  LANGUAGES,
  LANGUAGE_NAMES,
  SCREEN_LANGUAGE_PARAM,
} from '../../../shared/i18n/languages.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
import { FormDialog } from '../../components/form-dialog.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useCreateRoom, useDeleteRoom, useUpdateRoom } from './api/admin-programme.ts';
import { isUnauthorized } from './api/errors.ts';

/** The shared schema's check of a room's name: its message, or null. */
const nameError = (name: string) => {
  const parsed = roomCreateSchema.shape.name.safeParse(name);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid name');
};

/**
 * The rooms, in their order: add one, rename, move up or down, delete (the server refuses a room
 * that still has sessions, and its message says so).
 */
export function ProgrammeRooms({
  token,
  onExpired,
  rooms,
}: {
  token: string;
  onExpired: () => void;
  rooms: readonly Room[];
}) {
  const create = useCreateRoom(token);
  const update = useUpdateRoom(token);
  const remove = useDeleteRoom(token);
  const [name, setName] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{
    room: Room;
    name: string;
    error: string | null;
  } | null>(null);
  const [deleting, setDeleting] = useState<Room | null>(null);
  const [moving, setMoving] = useState(false);
  // The projectors' language, for the links below: the event's default unless one is chosen.
  const [screenLanguage, setScreenLanguage] = useState('');
  const projectorOf = (room: Room) =>
    screenLanguage
      ? `${roomPresentPath(room._id)}?${SCREEN_LANGUAGE_PARAM}=${screenLanguage}`
      : roomPresentPath(room._id);

  const failed = (fallback: string) => (error: unknown) => {
    if (isUnauthorized(error)) onExpired();
    else toastFailed(error, fallback);
  };

  const add = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const error = nameError(name);
    setAddError(error);
    if (error) return;
    create.mutate(
      { name },
      {
        onSuccess: (room) => {
          setName('');
          toastDone(`Added the room ${room.name}.`);
        },
        onError: (error) => {
          if (isUnauthorized(error)) onExpired();
          else setAddError(errorMessage(error, 'The room could not be added; try again.'));
        },
      },
    );
  };

  /** Moves a room one place: every room whose place changes gets its new position. */
  const move = async (index: number, by: -1 | 1) => {
    const order = [...rooms];
    const [room] = order.splice(index, 1);
    if (!room) return;
    order.splice(index + by, 0, room);
    setMoving(true);
    try {
      for (const [position, each] of order.entries()) {
        if (each.position !== position) {
          await update.mutateAsync({ id: each._id, update: { position } });
        }
      }
    } catch (error) {
      failed('The room could not be moved; try again.')(error);
    } finally {
      setMoving(false);
    }
  };

  const rename = (event?: SubmitEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (!renaming) return;
    const error = nameError(renaming.name);
    if (error) {
      setRenaming({ ...renaming, error });
      return;
    }
    update.mutate(
      { id: renaming.room._id, update: { name: renaming.name } },
      {
        onSuccess: (room) => {
          setRenaming(null);
          toastDone(`Renamed the room ${room.name}.`);
        },
        onError: (error) => {
          if (isUnauthorized(error)) onExpired();
          else
            setRenaming(
              (current) => current && { ...current, error: errorMessage(error, 'Try again.') },
            );
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rooms-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="rooms-title">
          Rooms
        </Title>
        {rooms.length === 0 && (
          <Text c="dimmed" fz="sm">
            No rooms yet: import a schedule, or add them here.
          </Text>
        )}
        {rooms.length > 0 && (
          <NativeSelect
            label="Projectors open in"
            data={[
              { value: '', label: 'The event’s default language' },
              ...LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] })),
            ]}
            value={screenLanguage}
            onChange={(event) => setScreenLanguage(event.currentTarget.value)}
          />
        )}
        <Stack gap={4} component="ol" m={0} p={0} style={{ listStyle: 'none' }}>
          {rooms.map((room, index) => (
            <Group key={room._id} component="li" gap={4} wrap="nowrap" aria-label={room.name}>
              <Text fw={500} style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                {room.name}
              </Text>
              <ActionIcon
                component="a"
                href={projectorOf(room)}
                target="_blank"
                rel="noopener"
                variant="subtle"
                size="lg"
                aria-label={`Open the projector of ${room.name}`}
              >
                <IconPresentation size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={`Move ${room.name} up`}
                disabled={index === 0 || moving}
                onClick={() => void move(index, -1)}
              >
                <IconArrowUp size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={`Move ${room.name} down`}
                disabled={index === rooms.length - 1 || moving}
                onClick={() => void move(index, 1)}
              >
                <IconArrowDown size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={`Rename ${room.name}`}
                onClick={() => setRenaming({ room, name: room.name, error: null })}
              >
                <IconPencil size={18} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Delete ${room.name}`}
                onClick={() => setDeleting(room)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
        <form onSubmit={add} noValidate>
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label="New room"
              placeholder="New room"
              value={name}
              maxLength={PROGRAMME_LIMITS.roomNameMax}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setAddError(null);
              }}
              error={addError}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button
              type="submit"
              variant="default"
              leftSection={<IconPlus size={18} />}
              loading={create.isPending}
            >
              Add room
            </Button>
          </Group>
        </form>
      </Stack>
      <FormDialog
        opened={renaming !== null}
        onClose={() => setRenaming(null)}
        title="Rename the room"
        onSubmit={rename}
        busy={update.isPending}
        actions={{
          cancel: 'Cancel',
          submit: 'Rename',
          submitting: 'Renaming…',
          icon: <IconCheck size={18} />,
        }}
      >
        <TextInput
          label="Name"
          data-autofocus
          maxLength={PROGRAMME_LIMITS.roomNameMax}
          value={renaming?.name ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setRenaming((current) => current && { ...current, name: value, error: null });
          }}
          error={renaming?.error}
        />
      </FormDialog>
      <ConfirmDeleteModal
        opened={deleting !== null}
        title="Delete this room?"
        confirmLabel="Delete room"
        deleting={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          const room = deleting;
          remove.mutate(room._id, {
            onSuccess: () => toastDone(`Deleted the room ${room.name}.`),
            onError: failed('The room could not be deleted; try again.'),
            onSettled: () => setDeleting(null),
          });
        }}
      >
        {deleting?.name} leaves the programme. A room with sessions cannot be deleted: move or
        delete them first.
      </ConfirmDeleteModal>
    </Paper>
  );
}

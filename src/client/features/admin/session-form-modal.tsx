import { Alert, MultiSelect, Select, SimpleGrid, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import {
  PROGRAMME_LIMITS,
  type Room,
  type Session,
  sessionCreateSchema,
} from '../../../shared/schemas/programme.ts';
import { FormDialog } from '../../components/form-dialog.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { useSaveSession } from './api/admin-programme.ts';
import { isUnauthorized } from './api/errors.ts';
import type { ZoneClock } from './programme-times.ts';

interface SessionValues {
  title: string;
  roomId: string | null;
  /** Wall times of the event's zone, as the `datetime-local` inputs hold them. */
  startsAt: string;
  endsAt: string;
  track: string;
  abstract: string;
  speakerIds: string[];
  cancelled: boolean;
}

/** What the form opens with: a session to edit, or a new one (in a room, at a time). */
export type SessionDraft =
  { session: Session } | { session: null; roomId: string | null; startsAt: string };

/** The shared schema's check of a text field: its message, or null. */
const check = (key: 'title' | 'track' | 'abstract') => (value: string) => {
  if (key === 'track' && !value.trim()) return null;
  const parsed = sessionCreateSchema.shape[key].safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid value');
};

/** The server names the field it refuses first (`endsAt must be later than startsAt`). */
const FIELD_OF_MESSAGE = /^(title|abstract|roomId|startsAt|endsAt|speakerIds|track|cancelled)\b/;

function initialValues(draft: SessionDraft, clock: ZoneClock): SessionValues {
  if (draft.session) {
    const { session } = draft;
    return {
      title: session.title,
      roomId: session.roomId,
      startsAt: clock.wall(session.startsAt),
      endsAt: clock.wall(session.endsAt),
      track: session.track ?? '',
      abstract: session.abstract,
      speakerIds: session.speakerIds,
      cancelled: session.cancelled,
    };
  }
  return {
    title: '',
    roomId: draft.roomId,
    startsAt: draft.startsAt,
    endsAt: '',
    track: '',
    abstract: '',
    speakerIds: [],
    cancelled: false,
  };
}

/**
 * Adds or edits a session: title, room, start and end as wall times of the event's time zone
 * (named beside them, with its offset), track, abstract, speakers from the existing ones, and
 * whether it is cancelled. A refusal of the server shows on the field it names.
 */
export function SessionFormModal({
  token,
  onExpired,
  draft,
  rooms,
  clock,
  timezone,
  now,
  onClose,
}: {
  token: string;
  onExpired: () => void;
  draft: SessionDraft | null;
  rooms: readonly Room[];
  clock: ZoneClock;
  timezone: string;
  /** The offset shown before a time is typed is the one at this moment. */
  now: number;
  onClose: () => void;
}) {
  const save = useSaveSession(token);
  const speakers = useSpeakersCard(draft !== null);
  const form = useForm<SessionValues>({
    mode: 'controlled',
    initialValues: initialValues({ session: null, roomId: null, startsAt: '' }, clock),
    validate: {
      title: check('title'),
      track: check('track'),
      abstract: check('abstract'),
      roomId: (value) => (value ? null : 'Choose a room'),
      startsAt: (value) => (clock.instant(value) === undefined ? 'Give the start' : null),
      endsAt: (value) => (clock.instant(value) === undefined ? 'Give the end' : null),
    },
  });
  const { setValues, resetDirty, clearErrors } = form;
  useEffect(() => {
    if (!draft) return;
    const values = initialValues(draft, clock);
    setValues(values);
    resetDirty(values);
    clearErrors();
  }, [draft, clock, setValues, resetDirty, clearErrors]);

  const editing = draft?.session ?? null;
  const submit = form.onSubmit((values) => {
    const startsAt = clock.instant(values.startsAt);
    const endsAt = clock.instant(values.endsAt);
    if (!values.roomId || startsAt === undefined || endsAt === undefined) return;
    const session = {
      title: values.title.trim(),
      roomId: values.roomId,
      startsAt: clock.iso(startsAt),
      endsAt: clock.iso(endsAt),
      track: values.track.trim() || null,
      abstract: values.abstract.trim(),
      speakerIds: values.speakerIds,
      cancelled: values.cancelled,
    };
    save.mutate(
      { id: editing?._id, session },
      {
        onSuccess: (saved) => {
          onClose();
          toastDone(editing ? `Saved “${saved.title}”.` : `Added “${saved.title}”.`);
        },
        onError: (error) => {
          if (isUnauthorized(error)) {
            onExpired();
            return;
          }
          const field =
            error instanceof ApiError && error.status === 400 && error.serverMessage
              ? FIELD_OF_MESSAGE.exec(error.serverMessage)?.[1]
              : undefined;
          if (field && field in values) form.setFieldError(field, error.message);
          else toastFailed(error, 'The session could not be saved; try again.');
        },
      },
    );
  });

  // The zone's name and its offset at the time typed (or now), beside both times.
  const zoneAt = (wall: string) => `${timezone} time (${clock.offset(clock.instant(wall) ?? now)})`;
  const speakerOptions = (speakers.data ?? []).map(({ _id, name }) => ({
    value: _id,
    label: name,
  }));
  // A speaker of the session whom the list does not have (yet) stays chosen, by id.
  for (const id of form.values.speakerIds) {
    if (!speakerOptions.some(({ value }) => value === id))
      speakerOptions.push({ value: id, label: id });
  }

  return (
    <FormDialog
      opened={draft !== null}
      onClose={onClose}
      title={editing ? 'Edit the session' : 'Add a session'}
      size="lg"
      onSubmit={submit}
      busy={save.isPending}
      actions={{
        cancel: 'Cancel',
        submit: editing ? 'Save session' : 'Add session',
        submitting: 'Saving…',
        icon: <IconCheck size={18} />,
      }}
    >
      {editing?.guid && (
        <Alert color="blue" icon={<IconInfoCircle />} p="xs">
          Imported from the schedule: importing it again brings back what the schedule says.
        </Alert>
      )}
      <TextInput
        label="Title"
        required
        data-autofocus
        maxLength={PROGRAMME_LIMITS.titleMax}
        {...form.getInputProps('title')}
      />
      <Select
        label="Room"
        required
        data={rooms.map(({ _id, name }) => ({ value: _id, label: name }))}
        allowDeselect={false}
        {...form.getInputProps('roomId')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          type="datetime-local"
          label="Starts"
          required
          description={zoneAt(form.values.startsAt)}
          {...form.getInputProps('startsAt')}
        />
        <TextInput
          type="datetime-local"
          label="Ends"
          required
          description={zoneAt(form.values.endsAt)}
          {...form.getInputProps('endsAt')}
        />
      </SimpleGrid>
      <TextInput
        label="Track"
        maxLength={PROGRAMME_LIMITS.trackMax}
        {...form.getInputProps('track')}
      />
      <MultiSelect
        label="Speakers"
        placeholder={form.values.speakerIds.length ? undefined : 'Choose speakers'}
        data={speakerOptions}
        searchable
        nothingFoundMessage="No speaker of that name"
        maxValues={PROGRAMME_LIMITS.speakersPerSession}
        {...form.getInputProps('speakerIds')}
      />
      <Textarea
        label="Abstract"
        autosize
        minRows={3}
        maxRows={10}
        maxLength={PROGRAMME_LIMITS.abstractMax}
        {...form.getInputProps('abstract')}
      />
      <Switch
        label="Cancelled"
        description="Stays in the programme, marked as cancelled."
        {...form.getInputProps('cancelled', { type: 'checkbox' })}
      />
    </FormDialog>
  );
}

import { Alert, Button, List, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconTrashX } from '@tabler/icons-react';
import { useState } from 'react';
import type { PurgeRemoved } from '../../../shared/schemas/admin.ts';
import { ModalActions } from '../../components/modal-actions.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { usePurgeEventData } from './api/purge-event-data.ts';
import { isUnauthorized } from './api/errors.ts';

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** What a purge removed, in words, the kinds with nothing left out. */
function removedLines(removed: PurgeRemoved): string[] {
  const lines = [
    plural(removed.attendees, 'attendee'),
    plural(removed.memories, 'memory', 'memories'),
    plural(removed.files, 'file'),
    plural(removed.questions, 'question'),
    plural(removed.votes, 'vote'),
    plural(removed.uploads, 'unfinished upload'),
    plural(removed.pollAnswers, 'poll answer'),
  ];
  return lines.filter((line) => !line.startsWith('0 '));
}

/**
 * The settings' danger zone: "Purge event data" removes every attendee's data at once (decision
 * 218), after the organiser types the event's name; the button works only on the exact name.
 */
export function PurgeEventData({
  token,
  eventName,
  onExpired,
}: {
  token: string;
  eventName: string;
  onExpired: () => void;
}) {
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const purge = usePurgeEventData(token);
  const [removed, setRemoved] = useState<PurgeRemoved | null>(null);
  const close = () => {
    setOpened(false);
    setTyped('');
  };
  const confirm = () =>
    purge.mutate(typed, {
      onSuccess: ({ removed: counts }) => {
        setRemoved(counts);
        close();
        toastDone('Event data purged.');
      },
      onError: (error) => {
        if (isUnauthorized(error)) onExpired();
        else toastFailed(error, 'Nothing was lost; try again.', 'The purge did not finish');
      },
    });
  const lines = removed ? removedLines(removed) : [];

  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      maw={1000}
      mt="lg"
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
    >
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="lg" c="red">
          Danger zone
        </Title>
        <Text fz="sm">
          Removes every attendee, memory with its files, question, vote and unfinished upload, for
          good. The settings, the speakers and the programme stay.
        </Text>
        <Button
          color="red"
          variant="outline"
          leftSection={<IconTrashX size={18} />}
          onClick={() => {
            setRemoved(null);
            setOpened(true);
          }}
        >
          Purge event data
        </Button>
        {removed && (
          <Alert color="green" title="Event data purged" role="status" w="100%">
            {lines.length === 0 ? (
              'There was nothing left to remove.'
            ) : (
              <>
                Removed:
                <List size="sm">
                  {lines.map((line) => (
                    <List.Item key={line}>{line}</List.Item>
                  ))}
                </List>
              </>
            )}
          </Alert>
        )}
      </Stack>
      <Modal opened={opened} onClose={close} title="Purge event data?">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === eventName) confirm();
          }}
        >
          <Stack gap="md">
            <Alert color="red" icon={<IconAlertTriangle />}>
              Every attendee, memory (with its photos and videos), question and vote is removed for
              good. This cannot be undone.
            </Alert>
            <TextInput
              label={`Type the event’s name, ${eventName}, to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
            />
            <ModalActions>
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                color="red"
                leftSection={<IconTrashX size={18} />}
                disabled={typed !== eventName}
                loading={purge.isPending}
              >
                Purge event data
              </Button>
            </ModalActions>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}

import {
  Avatar,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import type { Speaker } from '../../../shared/schemas/speaker.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { speakerSignInLink } from '../../../shared/routes.ts';
import { useDeleteSpeaker, useRenewSecret } from './api/admin-speakers.ts';
import { isUnauthorized } from './api/errors.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { ActionButton } from '../../components/action-button.tsx';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';

/**
 * The admin's Speakers tab: delete a speaker with their questions, and issue a new sign-in
 * secret (which ends the old one), shown once as a link to hand over; each after a confirmation.
 */
export function AdminSpeakers({ token, onExpired }: { token: string; onExpired: () => void }) {
  const speakers = useSpeakersCard();
  const remove = useDeleteSpeaker(token);
  const renew = useRenewSecret(token);
  const [confirming, setConfirming] = useState<Speaker | null>(null);
  const [replacing, setReplacing] = useState<Speaker | null>(null);
  const [issued, setIssued] = useState<{ speaker: Speaker; link: string } | null>(null);

  const failed = (error: unknown) => {
    if (isUnauthorized(error)) onExpired();
    else toastFailed(error, 'That did not work; try again.');
  };

  if (speakers.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label="Loading the speakers" />
      </Center>
    );
  }
  const list = speakers.data ?? [];
  return (
    <Stack gap="xs">
      {list.length === 0 && (
        <Text c="dimmed" ta="center" py="xl">
          {QA_TEXTS.noSpeakers}
        </Text>
      )}
      {list.map((speaker) => (
        <Paper
          key={speaker._id}
          withBorder
          radius="md"
          p="sm"
          component="article"
          aria-label={speaker.name}
        >
          <Group justify="space-between" gap="sm">
            <Group gap="sm" miw={0}>
              <Avatar src={speaker.avatar} alt="" name={speaker.name} radius="xl" />
              <div style={{ minWidth: 0 }}>
                <Text fw={700} truncate>
                  {speaker.name}
                </Text>
                <Text size="sm" c="dimmed" truncate>
                  {speaker.username} · {speaker.stack}
                </Text>
              </div>
            </Group>
            <Group gap="xs">
              <ActionButton
                icon={IconKey}
                loading={renew.isPending && renew.variables === speaker._id}
                onClick={() => setReplacing(speaker)}
              >
                New secret
              </ActionButton>
              <ActionButton icon={IconTrash} color="red" onClick={() => setConfirming(speaker)}>
                Delete
              </ActionButton>
            </Group>
          </Group>
        </Paper>
      ))}
      <ConfirmDeleteModal
        opened={confirming !== null}
        title="Delete this speaker?"
        confirmLabel="Delete speaker"
        deleting={remove.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          const speaker = confirming;
          remove.mutate(speaker._id, {
            onSuccess: () => {
              setConfirming(null);
              toastDone(`Deleted ${speaker.name}.`);
            },
            onError: (error) => {
              setConfirming(null);
              failed(error);
            },
          });
        }}
      >
        {confirming?.name} and every question asked to them will be deleted, for everyone, at once.
        This cannot be undone.
      </ConfirmDeleteModal>
      <ConfirmDeleteModal
        opened={replacing !== null}
        title="Replace the sign-in link?"
        confirmLabel="Replace the link"
        icon={IconKey}
        deleting={renew.isPending}
        onCancel={() => setReplacing(null)}
        onConfirm={() => {
          if (!replacing) return;
          const speaker = replacing;
          renew.mutate(speaker._id, {
            onSuccess: ({ secret }) => {
              setReplacing(null);
              setIssued({
                speaker,
                link: speakerSignInLink(window.location.origin, speaker.username, secret),
              });
            },
            onError: (error) => {
              setReplacing(null);
              failed(error);
            },
          });
        }}
      >
        {replacing?.name}’s current sign-in link stops working at once, on every device signed in
        with it. You will get a new link to hand over. This cannot be undone.
      </ConfirmDeleteModal>
      <Modal
        opened={issued !== null}
        onClose={() => setIssued(null)}
        title="New sign-in link"
        closeOnClickOutside={false}
      >
        <Stack>
          <Text>
            Hand this link to {issued?.speaker.name}. The old one no longer works. It is shown only
            once.
          </Text>
          <TextInput readOnly value={issued?.link ?? ''} aria-label="New sign-in link" />
          <CopyButton value={issued?.link ?? ''}>
            {({ copied, copy }) => (
              <Button onClick={copy} variant={copied ? 'light' : 'filled'}>
                {copied ? QA_TEXTS.copied : QA_TEXTS.copyLink}
              </Button>
            )}
          </CopyButton>
        </Stack>
      </Modal>
    </Stack>
  );
}

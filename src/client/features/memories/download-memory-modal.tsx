import { Button, Modal, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { MEMORY_TEXTS } from '../../../shared/constants.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { DownloadButton, MemoryMediaView } from './memory-media-view.tsx';
import classes from './memories.module.css';
import { ModalActions } from '../../components/modal-actions.tsx';

/** "Download Memory": a larger preview, the caption and author, and a Download button. */
export function DownloadMemoryModal({
  memory,
  onClose,
}: {
  memory: Memory | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={memory !== null} onClose={onClose} title={MEMORY_TEXTS.downloadTitle} size={680}>
      {memory && (
        <Stack gap="md">
          <div className={classes.modalMedia}>
            <MemoryMediaView memory={memory} size="full" />
          </div>
          <Stack gap={2}>
            <Text fw={700} className={classes.author}>
              {memory.username}
            </Text>
            <TimeAgo iso={memory.createdAt} long size="sm" c="dimmed" />
          </Stack>
          <Text className={classes.caption}>{memory.text}</Text>
          <ModalActions>
            <Button
              variant="default"
              component={Link}
              to={`${CLIENT_PATHS.memory}?id=${encodeURIComponent(memory._id)}`}
              leftSection={<IconExternalLink size={18} />}
            >
              Open page
            </Button>
            <DownloadButton memory={memory} />
          </ModalActions>
        </Stack>
      )}
    </Modal>
  );
}

import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconFileZip, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { WALL_TEXTS } from '../../../shared/constants.ts';
import { API_PATHS } from '../../../shared/routes.ts';
import { saveApiFile } from '../../lib/api-client.ts';
import { toastFailed } from '../../components/toast.ts';
import { isUnauthorized } from './api/errors.ts';

const megabytes = (bytes: number) =>
  bytes >= 10 * 2 ** 20
    ? `${Math.round(bytes / 2 ** 20)} MB`
    : `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The archive's name as the server gives it (`Content-Disposition`), else one of today. */
function fileNameOf(headers: Headers | undefined): string {
  const match = /filename="([^"]+)"/.exec(headers?.get('content-disposition') ?? '');
  return match?.[1] ?? `memories-${new Date().toISOString().slice(0, 10)}.zip`;
}

interface Progressing {
  received: number;
  /** The media's bytes as the server announced them (the archive adds a little). */
  expected: number;
  files: number;
}

/**
 * "Download all": every published memory as one ZIP (`GET /api/admin/memories.zip`), with how
 * much has arrived, and Cancel. The archive is made as it is sent; here it is gathered in parts
 * the browser may keep on disk, then saved under the server's name for it.
 */
export function DownloadAllButton({ token, onExpired }: { token: string; onExpired: () => void }) {
  const [progress, setProgress] = useState<Progressing | null>(null);
  const controller = useRef<AbortController | null>(null);

  const download = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ received: 0, expected: 0, files: 0 });
    try {
      await saveApiFile(API_PATHS.adminMemoriesZip, token, fileNameOf, {
        signal: abort.signal,
        onProgress: (received, answer) =>
          setProgress({
            received,
            expected: Number(answer.get('x-archive-bytes') ?? 0),
            files: Number(answer.get('x-archive-files') ?? 0),
          }),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (isUnauthorized(error)) {
        onExpired();
        return;
      }
      toastFailed(error, 'Check the connection and try again.', 'The download did not finish');
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  if (!progress) {
    return (
      <Button
        variant="default"
        leftSection={<IconFileZip size={18} aria-hidden />}
        onClick={() => void download()}
      >
        {WALL_TEXTS.downloadAll}
      </Button>
    );
  }
  const fraction =
    progress.expected > 0 ? Math.min(0.99, progress.received / progress.expected) : 0;
  const label =
    progress.expected > 0
      ? `${megabytes(progress.received)} of ${megabytes(progress.expected)} (${progress.files} ${progress.files === 1 ? 'file' : 'files'})`
      : megabytes(progress.received);
  return (
    <Stack gap={4} miw={240} style={{ flex: 1 }} maw={420}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fz="sm" aria-live="polite">
          Downloading all memories: {label}
        </Text>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconX size={14} aria-hidden />}
          onClick={() => controller.current?.abort()}
        >
          Cancel
        </Button>
      </Group>
      <Progress
        value={fraction * 100}
        animated={progress.expected === 0}
        aria-label="Download of all memories"
      />
    </Stack>
  );
}

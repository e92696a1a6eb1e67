import '@mantine/dropzone/styles.layer.css';
import { Alert, Button, Divider, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import {
  IconAlertCircle,
  IconCheck,
  IconDownload,
  IconFileImport,
  IconLink,
} from '@tabler/icons-react';
import { type SubmitEvent, useState } from 'react';
import { API_PATHS } from '../../../shared/routes.ts';
import type { ScheduleImportResult } from '../../../shared/schemas/schedule-import.ts';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { errorMessage, saveApiFile } from '../../lib/api-client.ts';
import { type ScheduleSource, useImportSchedule } from './api/admin-programme.ts';
import { isUnauthorized } from './api/errors.ts';

/** The media types a schedule file may arrive with (pickers that know no `.xml` get them too). */
const SCHEDULE_FILES = {
  'application/xml': ['.xml'],
  'text/xml': ['.xml'],
  'application/json': ['.json'],
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "12 added, 3 updated, 1 cancelled; 40 speakers added, 2 matched". */
const importSummary = ({ sessions, speakers }: ScheduleImportResult): string =>
  `${sessions.added} added, ${sessions.updated} updated, ${sessions.cancelled} cancelled; ` +
  `${plural(speakers.added, 'speaker', 'speakers')} added, ${speakers.matched} matched`;

/**
 * The import: drop or pick a schedule.xml or schedule.json as pretalx and frab export it, or give
 * its address (then the server fetches it again while the event runs); the answer's counts, or
 * the server's reason naming the line or field. Below, every speaker's sign-in link as CSV.
 */
export function ProgrammeImportPanel({
  token,
  onExpired,
}: {
  token: string;
  onExpired: () => void;
}) {
  const importing = useImportSchedule(token);
  const [url, setUrl] = useState('');
  const [done, setDone] = useState<{ result: ScheduleImportResult; fromUrl: boolean } | null>(null);
  const [confirmingLinks, setConfirmingLinks] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const start = (source: ScheduleSource) => {
    setDone(null);
    importing.mutate(source, {
      onSuccess: (result) => {
        setDone({ result, fromUrl: 'url' in source });
        if ('url' in source) setUrl('');
      },
      onError: (error) => {
        if (isUnauthorized(error)) onExpired();
      },
    });
  };
  const fetchUrl = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = url.trim();
    if (address) start({ url: address });
  };
  const downloadLinks = async () => {
    setConfirmingLinks(false);
    setDownloading(true);
    try {
      await saveApiFile(API_PATHS.adminSpeakerLinksCsv, token, 'speaker-links.csv');
      toastDone('The sign-in links are downloaded. The old ones no longer work.');
    } catch (error) {
      if (isUnauthorized(error)) onExpired();
      else toastFailed(error, 'The links could not be downloaded; try again.');
    } finally {
      setDownloading(false);
    }
  };
  const failure = importing.isError && !isUnauthorized(importing.error) ? importing.error : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="import-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="import-title">
          Import schedule
        </Title>
        <Dropzone
          onDrop={(files: File[]) => {
            const file = files[0];
            if (file) start({ file });
          }}
          onReject={() =>
            toastFailed(null, 'Choose a schedule.xml or schedule.json file.', 'Not a schedule')
          }
          accept={SCHEDULE_FILES}
          multiple={false}
          loading={importing.isPending}
          role="button"
          radius="md"
          p="md"
        >
          <Group justify="center" gap="sm" wrap="nowrap" mih={64} style={{ pointerEvents: 'none' }}>
            <IconFileImport size={32} stroke={1.5} aria-hidden />
            <div>
              <Text fw={600}>Pick schedule.xml or schedule.json</Text>
              <Text fz="sm" c="dimmed">
                or drop it here, as pretalx or frab export it
              </Text>
            </div>
          </Group>
        </Dropzone>
        <form onSubmit={fetchUrl} noValidate>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              type="url"
              label="Or its address"
              placeholder="https://pretalx.example.org/event/schedule/export/schedule.json"
              value={url}
              onChange={(event) => setUrl(event.currentTarget.value)}
              leftSection={<IconLink size={16} aria-hidden />}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button type="submit" variant="default" disabled={!url.trim() || importing.isPending}>
              Fetch
            </Button>
          </Group>
        </form>
        {done && (
          <Alert color="green" icon={<IconCheck />} title="Schedule imported" role="status">
            <Text fz="sm">{importSummary(done.result)}</Text>
            <Text fz="xs" c="dimmed">
              {plural(done.result.rooms, 'room', 'rooms')}, {done.result.sessions.unchanged}{' '}
              unchanged, {done.result.sessions.deleted} removed
              {done.fromUrl ? '. It is fetched again every few minutes while the event runs.' : '.'}
            </Text>
          </Alert>
        )}
        {failure && (
          <Alert color="red" icon={<IconAlertCircle />} title="Not imported" role="alert">
            <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {errorMessage(failure, 'The server could not be reached; try again.')}
            </Text>
          </Alert>
        )}
        <Divider />
        <Text fz="sm" c="dimmed">
          Every speaker gets a sign-in link of their own to follow and answer their questions.
          Download them to send out.
        </Text>
        <Button
          variant="default"
          leftSection={<IconDownload size={18} />}
          loading={downloading}
          onClick={() => setConfirmingLinks(true)}
        >
          Download sign-in links (CSV)
        </Button>
      </Stack>
      <ConfirmDeleteModal
        opened={confirmingLinks}
        title="Replace every sign-in link?"
        confirmLabel="Replace and download"
        icon={IconDownload}
        onCancel={() => setConfirmingLinks(false)}
        onConfirm={() => void downloadLinks()}
      >
        Every speaker gets a new sign-in link in the file, and their old links stop working at once,
        on every device signed in with them. Send the new ones out.
      </ConfirmDeleteModal>
    </Paper>
  );
}

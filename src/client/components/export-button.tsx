import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { saveApiFile } from '../lib/api-client.ts';
import { toastFailed } from './toast.ts';

/** A file the API makes for a signed-in caller (a CSV export), saved under `filename`. */
export function ExportButton({
  path,
  token,
  filename,
  children = 'Export CSV',
}: {
  path: string;
  token: string;
  filename: string;
  children?: string;
}) {
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await saveApiFile(path, token, filename);
    } catch (error) {
      toastFailed(error, 'The export did not work; try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={18} />}
      loading={busy}
      onClick={() => void save()}
    >
      {children}
    </Button>
  );
}

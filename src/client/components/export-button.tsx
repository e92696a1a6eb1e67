import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { translate, useT } from '../i18n/language.ts';
import { saveApiFile } from '../lib/api-client.ts';
import { toastFailed } from './toast.ts';

/** A file the API makes for a signed-in caller (a CSV export), saved under `filename`. */
export function ExportButton({
  path,
  token,
  filename,
  children,
}: {
  path: string;
  token: string;
  filename: string;
  /** The button's text ("Export CSV" unless given). */
  children?: string;
}) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await saveApiFile(path, token, filename);
    } catch (error) {
      toastFailed(error, translate('dialog.exportFailed'));
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
      {children ?? t('dialog.exportCsv')}
    </Button>
  );
}

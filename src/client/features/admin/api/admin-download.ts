import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';

/** A file the API answers with the admin's token (a CSV export), saved under `filename`. */
export async function saveAdminDownload(path: string, token: string, filename: string) {
  const blob = await apiDownload(path, token);
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  URL.revokeObjectURL(url);
}

/** An export as a mutation: its pending state drives the button's spinner. */
export const useAdminDownload = (token: string) =>
  useMutation({
    mutationFn: ({ path, filename }: { path: string; filename: string }) =>
      saveAdminDownload(path, token, filename),
  });

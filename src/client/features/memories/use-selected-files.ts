import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ACCEPTED_IMAGE_FILES,
  ACCEPTED_VIDEO_FILES,
  MAX_FILES_PER_POST,
  TOAST_AUTO_CLOSE,
} from '../../../shared/constants.ts';
import { translate } from '../../i18n/language.ts';
import { useAppConfig } from '../../lib/app-config.ts';

export interface SelectedFile {
  id: string;
  file: File;
  kind: 'image' | 'video';
  /** An object URL for the preview; revoked when the file leaves the selection. */
  previewUrl: string;
}

/** Types the pickers offer, with the name endings of each: what the server reads. */
export const ACCEPTED_FILES: Record<string, string[]> = {
  ...ACCEPTED_IMAGE_FILES,
  ...ACCEPTED_VIDEO_FILES,
};

const kindOfType = (type: string) => (type.startsWith('video/') ? 'video' : 'image');

/** What each name ending stands for, for files a browser gives no type (HEIC on most desktops). */
const ENDING_KINDS = new Map(
  Object.entries(ACCEPTED_FILES).flatMap(([type, endings]) =>
    endings.map((ending) => [ending, kindOfType(type)] as const),
  ),
);

/** What a picked file looks like (the server decides for sure, from the bytes). */
export function kindOf(file: File): 'image' | 'video' | undefined {
  if (Object.hasOwn(ACCEPTED_FILES, file.type)) return kindOfType(file.type);
  return ENDING_KINDS.get(`.${file.name.split('.').pop()?.toLowerCase() ?? ''}`);
}

/** The same as an `accept` attribute. */
export const ACCEPT_ATTRIBUTE = Object.entries(ACCEPTED_FILES)
  .flatMap(([type, extensions]) => [type, ...extensions])
  .join(',');

const toastError = (message: string) =>
  notifications.show({ color: 'red', message, autoClose: TOAST_AUTO_CLOSE });

let counter = 0;

/**
 * The files picked for a post, with their previews. Files over the real upload limit or of a
 * type that cannot be posted are turned away with a toast that names them.
 */
export function useSelectedFiles() {
  const config = useAppConfig().data;
  const [selected, setSelected] = useState<SelectedFile[]>([]);
  // The selection as the event handlers change it; the state above is what renders.
  const current = useRef<SelectedFile[]>([]);
  const update = useCallback((next: SelectedFile[]) => {
    current.current = next;
    setSelected(next);
  }, []);

  useEffect(
    () => () => {
      for (const item of current.current) URL.revokeObjectURL(item.previewUrl);
      current.current = [];
    },
    [],
  );

  const add = useCallback(
    (files: File[]) => {
      const accepted: SelectedFile[] = [];
      let room = MAX_FILES_PER_POST - current.current.length;
      for (const file of files) {
        const kind = kindOf(file);
        if (!kind) {
          toastError(translate('memories.unsupportedFile', { fileName: file.name }));
          continue;
        }
        if (config && file.size > config.maxUploadBytes) {
          toastError(
            translate('memories.tooLarge', { fileName: file.name, megabytes: config.maxUploadMb }),
          );
          continue;
        }
        if (room <= 0) {
          toastError(translate('memories.tooManyFiles', { max: MAX_FILES_PER_POST }));
          break;
        }
        room -= 1;
        counter += 1;
        accepted.push({ id: `f${counter}`, file, kind, previewUrl: URL.createObjectURL(file) });
      }
      if (accepted.length > 0) update([...current.current, ...accepted]);
    },
    [config, update],
  );

  const remove = useCallback(
    (id: string) => {
      const gone = current.current.find((item) => item.id === id);
      if (!gone) return;
      URL.revokeObjectURL(gone.previewUrl);
      update(current.current.filter((item) => item.id !== id));
    },
    [update],
  );

  const clear = useCallback(() => {
    for (const item of current.current) URL.revokeObjectURL(item.previewUrl);
    update([]);
  }, [update]);

  return { selected, files: selected.map((item) => item.file), add, remove, clear };
}

export type SelectedFiles = ReturnType<typeof useSelectedFiles>;

import { createStore, del, get } from 'idb-keyval';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { SHARED_FILES_PARAM, SHARED_FILES_STORE } from '../../../shared/pwa.ts';

/**
 * Photos and videos shared to the app from the phone's gallery (the manifest's share target):
 * the service worker keeps them and opens the form with `?shared=1`; they are attached once,
 * then forgotten.
 */
export function useSharedFiles(opened: boolean, add: (files: File[]) => void): void {
  const [params, setParams] = useSearchParams();
  const shared = params.has(SHARED_FILES_PARAM);
  const attach = useRef(add);
  useEffect(() => {
    attach.current = add;
  });
  useEffect(() => {
    if (!opened || !shared) return;
    const store = createStore(...SHARED_FILES_STORE);
    let cancelled = false;
    void get<File[]>('files', store)
      .then(async (files) => {
        if (cancelled) return;
        await del('files', store);
        if (files && files.length > 0) attach.current(files);
        setParams(
          (current) => {
            current.delete(SHARED_FILES_PARAM);
            return current;
          },
          { replace: true },
        );
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [opened, shared, setParams]);
}

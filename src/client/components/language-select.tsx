import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  LANGUAGES,
  LANGUAGE_NAMES,
  type Language,
  isLanguage,
} from '../../shared/i18n/languages.ts';
import { chooseLanguage, useMessages } from '../i18n/language.ts';
import { whenIdle } from '../lib/when-idle.ts';

/** The languages the event offers, as `GET /api/config` names them; undefined when it does not. */
function enabledIn(config: unknown): readonly Language[] | undefined {
  const languages: unknown =
    typeof config === 'object' && config !== null && 'languages' in config
      ? config.languages
      : undefined;
  if (!Array.isArray(languages)) return undefined;
  const enabled = languages.filter(isLanguage);
  return enabled.length > 0 ? enabled : undefined;
}

/**
 * The languages to offer: the event's, once its config is read; every shipped one before then
 * (so the join page's first render matches the markup prerendered without any config). The
 * config's code loads after the page is idle, as the live branding's does: the join page's entry
 * carries none of it.
 */
function useEnabledLanguages(): readonly Language[] {
  const [enabled, setEnabled] = useState<readonly Language[]>(LANGUAGES);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void whenIdle()
      .then(() => Promise.all([import('../lib/query-client.ts'), import('../lib/app-config.ts')]))
      .then(([{ queryClient }, { appConfigQueryOptions }]) => {
        if (stopped) return;
        const options = appConfigQueryOptions();
        const read = () => {
          const found = enabledIn(queryClient.getQueryData(options.queryKey)) ?? LANGUAGES;
          // The same list again keeps the same array: no render for every change of the cache.
          setEnabled((current) => (current.join() === found.join() ? current : found));
        };
        stop = queryClient.getQueryCache().subscribe(read);
        read();
        // Read once if no screen has yet (its time to stale is forever: a cached answer is kept).
        void queryClient.fetchQuery(options).catch(() => undefined);
      });
    return () => {
      stopped = true;
      stop?.();
    };
  }, []);
  return enabled;
}

/**
 * The language control of the join page and the header: "Language" in the language shown, each
 * language offered by its own name (and marked as written in it, for screen readers and fonts).
 * A choice is kept on the device and shown at once. The language shown stays offered even when
 * the event no longer enables it, so the control never names another than the one on screen.
 */
export function LanguageSelect(props: Omit<NativeSelectProps, 'data' | 'value' | 'onChange'>) {
  const { t, language } = useMessages();
  const enabled = useEnabledLanguages();
  const offered = LANGUAGES.filter((code) => code === language || enabled.includes(code));
  return (
    <NativeSelect
      label={t('language.label')}
      value={language}
      onChange={(event) => {
        const chosen = event.currentTarget.value;
        if (isLanguage(chosen)) void chooseLanguage(chosen).catch(() => undefined);
      }}
      {...props}
    >
      {offered.map((code) => (
        <option key={code} value={code} lang={code} dir="auto">
          {LANGUAGE_NAMES[code]}
        </option>
      ))}
    </NativeSelect>
  );
}

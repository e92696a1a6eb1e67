import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { useEffect, useSyncExternalStore } from 'react';
import {
  LANGUAGES,
  LANGUAGE_NAMES,
  type Language,
  isLanguage,
} from '../../shared/i18n/languages.ts';
import { chooseLanguage, choosePickedEarly, useMessages } from '../i18n/language.ts';
import { onLanguageOffer } from '../lib/offered-languages.ts';

let enabled: readonly Language[] = LANGUAGES;
const listeners = new Set<() => void>();

// The offer arrives with the settings on every screen, the join page's included: the live
// branding reads them at each connect and hears each change (`takeLanguageOffer`).
onLanguageOffer((offer) => {
  const next = offer.languages.length > 0 ? offer.languages : LANGUAGES;
  if (next.join() === enabled.join()) return;
  enabled = next;
  for (const listener of listeners) listener();
});

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * The languages to offer: the event's, once its settings are read; every shipped one before
 * then, and in the server's render (so the join page hydrates the markup prerendered without any
 * settings).
 */
const useEnabledLanguages = (): readonly Language[] =>
  useSyncExternalStore(
    subscribe,
    () => enabled,
    () => LANGUAGES,
  );

/**
 * The language control of the join page and the header: "Language" in the language shown, each
 * language offered by its own name (and marked as written in it, for screen readers and fonts).
 * A choice is kept on the device and shown at once. The language shown stays offered even when
 * the event no longer enables it, so the control never names another than the one on screen.
 */
export function LanguageSelect(props: Omit<NativeSelectProps, 'data' | 'value' | 'onChange'>) {
  const { t, language } = useMessages();
  const offer = useEnabledLanguages();
  const offered = LANGUAGES.filter((code) => code === language || offer.includes(code));
  // A language picked on the server's page before its code arrived is chosen now.
  useEffect(choosePickedEarly, []);
  return (
    <NativeSelect
      data-language-control=""
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

import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { directionOf } from '../../shared/i18n/languages.ts';
import { FirstRenderGate } from '../components/after-first-render.tsx';
import { useMessages } from '../i18n/language.ts';
import { useLiveBranding } from '../lib/use-live-branding.ts';
import { createColorSchemeManager } from './color-scheme.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = createColorSchemeManager();

/**
 * Mantine with the theme and the colour-scheme manager. The screens past the join page add
 * TanStack Query (`screen-providers.tsx`) and the toasts (`layout/with-toasts.tsx`) as they load.
 */
/** Keeps Mantine's direction that of the language shown (Arabic is right to left). */
function FollowLanguageDirection() {
  const { language } = useMessages();
  const { dir, setDirection } = useDirection();
  const wanted = directionOf(language);
  useEffect(() => {
    if (dir !== wanted) setDirection(wanted);
  }, [dir, wanted, setDirection]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  // The event's name, colour and logo follow the admin's settings on every screen.
  useLiveBranding();
  const { language } = useMessages();
  return (
    <DirectionProvider initialDirection={directionOf(language)} detectDirection={false}>
      <FollowLanguageDirection />
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        colorSchemeManager={colorSchemeManager}
      >
        <FirstRenderGate>{children}</FirstRenderGate>
      </MantineProvider>
    </DirectionProvider>
  );
}

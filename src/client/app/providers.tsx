import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLiveBranding } from '../lib/use-live-branding.ts';
import { createColorSchemeManager } from './color-scheme.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = createColorSchemeManager();

/**
 * Mantine with the theme and the colour-scheme manager. The screens past the join page add
 * TanStack Query (`screen-providers.tsx`) and the toasts (`layout/with-toasts.tsx`) as they load.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  // The event's name, colour and logo follow the admin's settings on every screen.
  useLiveBranding();
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      colorSchemeManager={colorSchemeManager}
    >
      {children}
    </MantineProvider>
  );
}

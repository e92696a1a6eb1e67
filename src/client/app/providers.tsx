import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TOAST_DEFAULT_AUTO_CLOSE } from '../../shared/constants.ts';
import { queryClient } from '../lib/query-client.ts';
import { createColorSchemeManager } from './color-scheme.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const colorSchemeManager = createColorSchemeManager();

/** Mantine (theme, colour scheme, notifications top-right) and TanStack Query. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        colorSchemeManager={colorSchemeManager}
      >
        <Notifications
          position="top-right"
          autoClose={TOAST_DEFAULT_AUTO_CLOSE}
          containerWidth={440}
          zIndex={1000}
        />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}

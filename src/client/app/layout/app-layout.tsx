import { Box, Button, Center, Stack, Text, Title } from '@mantine/core';
import { Suspense, lazy, useEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { OutboxPanel } from '../../components/outbox-panel.tsx';
import { useT } from '../../i18n/language.ts';
import { AppHeader } from './app-header.tsx';
import { RouteFallback } from './route-fallback.tsx';

const FrameAnnouncements = lazy(() => import('./frame-announcements.tsx'));

/** The frame of every screen but the join page. */
export function AppLayout({ notFound = false }: { notFound?: boolean }) {
  const t = useT();
  // What a closed page left in the outbox is sent from any screen, once it is idle.
  useEffect(() => {
    void import('../../features/memories/memory-outbox.ts');
    void import('../../features/questions/question-outbox.ts');
  }, []);
  return (
    <>
      <AppHeader />
      <OutboxPanel />
      <Box component="main" px="sm" pb="xl" maw={1200} mx="auto">
        <Suspense fallback={null}>
          <FrameAnnouncements part="banner" />
        </Suspense>
        {notFound ? (
          <Center mih="60vh">
            <Stack align="center">
              <Title order={1}>{t('app.notFoundTitle')}</Title>
              <Text c="dimmed">{t('app.notFoundBody')}</Text>
              <Button component={Link} to={CLIENT_PATHS.home}>
                {t('app.goHome')}
              </Button>
            </Stack>
          </Center>
        ) : (
          // The header shows at once; only the screen below it waits for its code.
          <Suspense fallback={<RouteFallback />}>
            <Outlet />
          </Suspense>
        )}
      </Box>
    </>
  );
}

import { Box, Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { AppHeader } from './app-header.tsx';

/** The frame of every screen but the join page. */
export function AppLayout({ notFound = false }: { notFound?: boolean }) {
  return (
    <>
      <AppHeader />
      <Box component="main" px="sm" pb="xl" maw={1200} mx="auto">
        {notFound ? (
          <Center mih="60vh">
            <Stack align="center">
              <Title order={1}>Page not found</Title>
              <Text c="dimmed">There is nothing at this address.</Text>
              <Button component={Link} to={CLIENT_PATHS.home}>
                Go home
              </Button>
            </Stack>
          </Center>
        ) : (
          <Outlet />
        )}
      </Box>
    </>
  );
}

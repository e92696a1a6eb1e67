import { Center, Loader, Stack, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { ADMIN_TEXTS } from '../../../shared/constants.ts';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useEventName } from '../../lib/event-name.ts';
import { useAdminCheck } from './api/admin-check.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { AdminDashboard, type ConsolePanels } from './admin-dashboard.tsx';
import { AdminHeader } from './admin-header.tsx';
import { AdminLoginForm } from './admin-login-form.tsx';
import { useAdminToken } from './admin-token.ts';
import classes from './admin-screen.module.css';

/** A stored token is checked once; a refused one ends the session, a network error does not. */
function AdminSession({
  token,
  onExpired,
  panels,
}: {
  token: string;
  onExpired: () => void;
  panels: ConsolePanels;
}) {
  const check = useAdminCheck(token);
  const refused = useSessionExpiry(check.error, onExpired);

  if (check.isPending || refused) {
    return (
      <Center mih="40vh">
        <Stack align="center" gap="xs">
          <Loader aria-label="Checking your session" />
          <Text c="dimmed">Checking your session…</Text>
        </Stack>
      </Center>
    );
  }
  if (check.isError) {
    return (
      <RetryAlert
        title="Could not reach the server"
        onRetry={() => void check.refetch()}
        maw={520}
        mx="auto"
      >
        {errorMessage(check.error, 'Please check your connection.')}
      </RetryAlert>
    );
  }
  return <AdminDashboard token={token} onExpired={onExpired} panels={panels} />;
}

/**
 * /borderlessadmin: the login form, or moderation once the admin has a good token; `panels` are
 * the tabs other features give the console (its polls).
 */
export function AdminScreen({ panels }: { panels: ConsolePanels }) {
  const eventName = useEventName();
  useDocumentTitle(`Admin · ${eventName}`);
  const queryClient = useQueryClient();
  const [token, , removeToken] = useAdminToken();
  const [notice, setNotice] = useState<string | null>(null);

  // Logged out (here or in another tab): nothing of the session stays in memory.
  useEffect(() => {
    if (!token) queryClient.removeQueries({ queryKey: ['admin'] });
  }, [token, queryClient]);

  const logout = useCallback(() => {
    setNotice(null);
    removeToken();
  }, [removeToken]);
  const expire = useCallback(() => {
    setNotice(ADMIN_TEXTS.sessionExpired);
    removeToken();
  }, [removeToken]);

  return (
    <div className={classes.page}>
      <AdminHeader onLogout={token ? logout : undefined} />
      {token ? (
        <main className={classes.main}>
          <AdminSession token={token} onExpired={expire} panels={panels} />
        </main>
      ) : (
        <main className={classes.loginWrap}>
          <AdminLoginForm notice={notice} />
        </main>
      )}
    </div>
  );
}

import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useT } from '../../i18n/language.ts';

/** What shows in place of a screen that failed: in the language shown, with a reload. */
function ScreenFailed() {
  const t = useT();
  // Plain text and a button, no Alert: this shows when a screen's code failed to download, so
  // it must need nothing but what the entry has, and the entry carries no more than it needs.
  return (
    <Center mih="60vh" p="md">
      <Stack maw={420} role="alert">
        <Group gap="xs" wrap="nowrap">
          <IconAlertTriangle color="var(--mantine-color-red-text)" aria-hidden />
          <Title order={1} fz="lg">
            {t('app.errorTitle')}
          </Title>
        </Group>
        <Text>{t('app.errorBody')}</Text>
        <Button onClick={() => window.location.reload()}>{t('app.reload')}</Button>
      </Stack>
    </Center>
  );
}

interface State {
  error: Error | null;
}

/** Keeps one broken screen (or a failed chunk download) from blanking the whole app. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Screen failed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <ScreenFailed /> : this.props.children;
  }
}

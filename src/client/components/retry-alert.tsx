import { Alert, type AlertProps, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useT } from '../i18n/language.ts';

export interface RetryAlertProps extends Omit<AlertProps, 'title' | 'children'> {
  title: string;
  /** What went wrong, as the reader should hear it. */
  children: ReactNode;
  onRetry: () => void;
}

/** Something that could not load: what went wrong, and "Try again". */
export function RetryAlert({ title, children, onRetry, ...alertProps }: RetryAlertProps) {
  const t = useT();
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle />} {...alertProps}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{children}</Text>
        <Button
          size="sm"
          variant="light"
          color="red"
          leftSection={<IconRefresh size={16} />}
          onClick={onRetry}
        >
          {t('app.tryAgain')}
        </Button>
      </Stack>
    </Alert>
  );
}

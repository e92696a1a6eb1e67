import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertCircle, type Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A console list or form that could not load or act: said at once to screen readers. */
export function LoadError({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert">
      {children}
    </Alert>
  );
}

/** A console list with nothing in it: an icon and a sentence, in the middle. */
export function EmptyList({ icon: ListIcon, children }: { icon: Icon; children: ReactNode }) {
  return (
    <Stack align="center" gap={4} py="xl" c="dimmed">
      <ListIcon size={32} aria-hidden />
      <Text ta="center" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

import { Center, type CenterProps, Loader, Stack, Text } from '@mantine/core';
import { MEMORY_TEXTS } from '../../../shared/constants.ts';

/** The spec's "Loading . . . ." while memories load (the gallery, a page of it, one memory). */
export function MemoriesLoading(props: Omit<CenterProps, 'children'>) {
  return (
    <Center aria-busy="true" {...props}>
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text c="dimmed">{MEMORY_TEXTS.loading}</Text>
      </Stack>
    </Center>
  );
}

import { Center, type CenterProps, Loader, Stack, Text } from '@mantine/core';
import { useT } from '../../i18n/language.ts';

/** The spec's "Loading . . . ." while memories load (the gallery, a page of it, one memory). */
export function MemoriesLoading(props: Omit<CenterProps, 'children'>) {
  const t = useT();
  return (
    <Center aria-busy="true" {...props}>
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text c="dimmed">{t('memories.loading')}</Text>
      </Stack>
    </Center>
  );
}

import { Center, Loader } from '@mantine/core';
import { useT } from '../../i18n/language.ts';

/** What shows while a screen's code loads. */
export function RouteFallback() {
  const t = useT();
  return (
    <Center mih="50vh" aria-busy="true">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}

import { Center, Loader } from '@mantine/core';

/** What shows while a screen's code loads. */
export function RouteFallback() {
  return (
    <Center mih="50vh" aria-busy="true">
      <Loader aria-label="Loading" />
    </Center>
  );
}

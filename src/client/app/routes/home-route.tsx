import { Group, Stack, Text, Title } from '@mantine/core';
import { TEXTS } from '../../../shared/constants.ts';
import { GallerySection } from '../../features/memories/memories-screen.tsx';
import { ShareMemoryAction } from '../../features/memories/share-memory-action.tsx';
import { AskQuestionButton } from '../../features/questions/ask-question-button.tsx';
import { useEventName } from '../../lib/event-name.ts';
import classes from './home-route.module.css';

/** /home: the hero, the two main actions and the memory gallery. */
export default function HomeRoute() {
  const eventName = useEventName();
  return (
    <Stack gap="lg" pt="lg">
      <Stack gap={4} className={classes.hero}>
        <Text className={classes.tagline} fw={800} tt="uppercase">
          {TEXTS.heroTagline}
        </Text>
        <Title order={1} className={classes.title}>
          {TEXTS.heroJoin(eventName)}
        </Title>
      </Stack>

      {/* The two main actions, side by side (stacked on narrow phones). */}
      <Group gap="sm" className={classes.actions}>
        <ShareMemoryAction />
        <AskQuestionButton size="lg" />
      </Group>

      <GallerySection />
    </Stack>
  );
}

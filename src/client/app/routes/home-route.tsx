import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { AppFooter } from '../../components/app-footer.tsx';
import { GallerySection } from '../../features/memories/memories-screen.tsx';
import { PushOptIn } from '../../features/announcements/push-opt-in.tsx';
import { ShareMemoryAction } from '../../features/memories/share-memory-action.tsx';
import { PollList } from '../../features/polls/poll-list.tsx';
import {
  sessionToFollow,
  useFollowedSession,
} from '../../features/programme/api/followed-session.ts';
import { useSchedule } from '../../features/programme/api/get-schedule.ts';
import { AskQuestionButton } from '../../features/questions/ask-question-button.tsx';
import { useSpeakersCard } from '../../features/speakers/api/get-speakers.ts';
import { useMessages } from '../../i18n/language.ts';
import { useEventName } from '../../lib/event-name.ts';
import { useNow } from '../../lib/use-now.ts';
import classes from './home-route.module.css';
import { FollowedTalkReactions } from './talk-reactions.tsx';

/**
 * The polls for the attendee on /home: the event-wide ones, and those of the talk they follow
 * (the one opened last, while it runs; or the only one on now) (decision 229).
 */
function HomePolls() {
  const { rich } = useMessages();
  const schedule = useSchedule();
  const now = useNow();
  const [followed] = useFollowedSession();
  const session = sessionToFollow(schedule.data, followed, now);
  return (
    <>
      <PollList scope={{ sessionId: null }} />
      {session && (
        <PollList
          key={session._id}
          scope={{ sessionId: session._id }}
          heading={rich('home.sessionPolls', { title: <bdi>{session.title}</bdi> })}
        />
      )}
    </>
  );
}

/** /home: the hero, the two main actions, the polls and the memory gallery. */
export default function HomeRoute() {
  const { t, rich } = useMessages();
  const eventName = useEventName();
  // `?ask=<speaker username>`, from the presenter view's QR code: the ask form opens with that
  // speaker chosen, once the speakers are known.
  const [params] = useSearchParams();
  const ask = params.get('ask')?.toLowerCase();
  const speakers = useSpeakersCard(Boolean(ask));
  const asked = ask ? speakers.data?.find((speaker) => speaker.username === ask) : undefined;
  return (
    <Stack gap="lg" pt="lg">
      <Stack gap={4} className={classes.hero}>
        <Text className={classes.tagline} fw={800} tt="uppercase">
          {t('home.heroTagline')}
        </Text>
        <Title order={1} className={classes.title}>
          {rich('home.heroJoin', { eventName: <bdi>{eventName}</bdi> })}
        </Title>
      </Stack>

      <FollowedTalkReactions />

      {/* The two main actions, side by side (stacked on narrow phones). */}
      <Group gap="sm" className={classes.actions}>
        <ShareMemoryAction />
        <AskQuestionButton
          key={asked?._id ?? 'ask'}
          size="lg"
          speakerId={asked?._id}
          defaultOpened={Boolean(asked)}
        />
      </Group>
      {/* The programme, for phones, whose header has no room for it. */}
      <Button
        component={Link}
        to={CLIENT_PATHS.schedule}
        variant="subtle"
        leftSection={<IconCalendarEvent size={18} />}
        hiddenFrom="sm"
        mx="auto"
      >
        {t('home.scheduleLink')}
      </Button>
      <PushOptIn />

      <HomePolls />
      <GallerySection />
      <AppFooter />
    </Stack>
  );
}

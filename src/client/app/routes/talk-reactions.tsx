import { Paper, Text } from '@mantine/core';
import type { Session } from '../../../shared/schemas/programme.ts';
import { useFollowedSession } from '../../features/programme/api/followed-session.ts';
import { useSchedule } from '../../features/programme/api/get-schedule.ts';
import { isOnNow } from '../../features/programme/api/sessions-now.ts';
import { ReactionBar } from '../../features/reactions/reaction-bar.tsx';
import { useMessages, useT } from '../../i18n/language.ts';
import { useNow } from '../../lib/use-now.ts';

/** The reaction bar of a talk, while it is on by the clock (decision 237). */
export function TalkReactions({ session }: { session: Session }) {
  const t = useT();
  const now = useNow();
  if (!isOnNow(session, now)) return null;
  return (
    <ReactionBar sessionId={session._id} label={t('home.reactTo', { title: session.title })} />
  );
}

/** On /home: the reactions of the talk followed (the one whose page was opened last), while on. */
function FollowedTalk({ sessionId }: { sessionId: string }) {
  const { rich } = useMessages();
  const session = useSchedule().data?.sessions.find((item) => item._id === sessionId);
  const now = useNow();
  if (!session || !isOnNow(session, now)) return null;
  return (
    <Paper withBorder radius="lg" px={4} py="xs" maw={560} w="100%" mx="auto">
      <Text ta="center" fw={600} size="sm" mb={4}>
        {rich('home.onNow', { title: <bdi>{session.title}</bdi> })}
      </Text>
      <TalkReactions session={session} />
    </Paper>
  );
}

/** /home's reactions: none until a talk's page was opened. */
export function FollowedTalkReactions() {
  const [followed] = useFollowedSession();
  return followed ? <FollowedTalk sessionId={followed} /> : null;
}

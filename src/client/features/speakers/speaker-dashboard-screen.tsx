import {
  Anchor,
  Badge,
  Blockquote,
  Button,
  Center,
  EmptyState,
  Grid,
  Group,
  Image,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconBrandX, IconMessageCircleOff, IconMoodSad, IconQuote } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useSpeakerDashboard } from './api/get-speaker-dashboard.ts';
import classes from './speaker-dashboard.module.css';
import { useLiveDashboard } from './use-live-dashboard.ts';

/** The asker's profile on X; the handle is encoded, whatever was typed. */
export const askerProfileUrl = (handle: string): string =>
  `https://x.com/${encodeURIComponent(handle.replace(/^@+/, ''))}`;

function QuestionItem({ question }: { question: Question }) {
  return (
    <Paper component="article" withBorder radius="lg" p="md">
      <Group justify="space-between" gap="xs" wrap="nowrap" mb={6}>
        <Anchor
          href={askerProfileUrl(question.askerUsername)}
          target="_blank"
          rel="noopener noreferrer"
          fw={700}
          size="sm"
          className={classes.handle}
          aria-label={`@${question.askerUsername} on X (opens in a new tab)`}
        >
          <IconBrandX size={14} aria-hidden /> @{question.askerUsername}
        </Anchor>
        <TimeAgo iso={question.createdAt} size="xs" c="dimmed" style={{ flexShrink: 0 }} />
      </Group>
      <Text className={classes.text}>{question.question}</Text>
    </Paper>
  );
}

/**
 * /speakers/:username/dashboard: the speaker's details and the questions put to them, newest
 * first, live over the socket and polled every 5 s.
 */
export default function SpeakerDashboardScreen() {
  const { username = '' } = useParams();
  const dashboard = useSpeakerDashboard(username);
  const speaker = dashboard.data;
  useLiveDashboard(username, speaker?._id);

  useEffect(() => {
    if (dashboard.isError && !dashboard.data)
      console.error('Speaker fetch failed', dashboard.error);
  }, [dashboard.isError, dashboard.data, dashboard.error]);

  if (dashboard.isPending) {
    return (
      <Center mih="50vh">
        <Stack align="center" gap="sm">
          <Loader />
          <Text c="dimmed">{QA_TEXTS.loading}</Text>
        </Stack>
      </Center>
    );
  }

  if (!speaker) {
    return (
      <Center mih="50vh">
        <EmptyState icon={<IconMoodSad size={28} />} withIndicatorBackground>
          {/* The screen's heading: what the dashboard would have been titled is unknown. */}
          <EmptyState.Title order={1}>{QA_TEXTS.speakerNotFound}</EmptyState.Title>
          <EmptyState.Description>
            Check the username you got when you added your bio.
          </EmptyState.Description>
          <EmptyState.Actions>
            <Button component={Link} to={CLIENT_PATHS.speakerLogin} variant="light">
              Speaker login
            </Button>
            <Button variant="default" onClick={() => void dashboard.refetch()}>
              Try again
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Center>
    );
  }

  const newestFirst = [...speaker.questions].reverse();

  return (
    <Stack gap="lg" pt="lg">
      <Title order={1} className={classes.title}>
        {QA_TEXTS.dashboardTitle(speaker.name)}
      </Title>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="lg" p="md" component="section" aria-label="Your details">
            <Stack gap="md">
              <div className={classes.identity}>
                <Image
                  src={speaker.picture}
                  alt={speaker.name}
                  radius="md"
                  className={classes.picture}
                />
                <div>
                  <Text size="xs" tt="uppercase" fw={800} c="dimmed">
                    Stack
                  </Text>
                  <Text>{speaker.stack}</Text>
                </div>
              </div>
              <div>
                <Text size="xs" tt="uppercase" fw={800} c="dimmed">
                  Bio
                </Text>
                <Text className={classes.text}>{speaker.bio}</Text>
              </div>
              {speaker.message && (
                <Blockquote icon={<IconQuote size={18} />} iconSize={32} p="sm" mt="xs">
                  <Text size="sm">{speaker.message}</Text>
                </Blockquote>
              )}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm" component="section" aria-label="Questions">
            <Group gap="xs">
              <Title order={2} fz="xl">
                Questions
              </Title>
              <Badge variant="light" size="lg" aria-label={`${speaker.questions.length} questions`}>
                {speaker.questions.length}
              </Badge>
            </Group>
            {newestFirst.length === 0 ? (
              <Paper withBorder radius="lg" p="lg">
                <EmptyState
                  icon={<IconMessageCircleOff size={28} />}
                  withIndicatorBackground
                  title={QA_TEXTS.noQuestionsAvailable}
                  description="Questions appear here the moment attendees ask them."
                />
              </Paper>
            ) : (
              <Stack gap="sm" role="feed" aria-label="Questions for you">
                {newestFirst.map((question) => (
                  <QuestionItem key={question._id} question={question} />
                ))}
              </Stack>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

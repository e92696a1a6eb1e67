import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPhoto } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useEventName } from '../../lib/event-name.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { useMemory } from './api/get-memory.ts';
import { MemoriesLoading } from './memories-loading.tsx';
import { DownloadButton, MemoryMediaView } from './memory-media-view.tsx';
import { ShareButtons } from './share-buttons.tsx';
import { memoryPageUrl, shareText } from './share-links.ts';
import { useMemoryEvents } from './use-memory-events.ts';
import classes from './memories.module.css';

function BackToGallery() {
  const [username] = useStoredUsername();
  const eventName = useEventName();
  return username ? (
    <Button
      component={Link}
      to={CLIENT_PATHS.home}
      variant="subtle"
      leftSection={<IconPhoto size={18} />}
    >
      See all memories
    </Button>
  ) : (
    <Button component={Link} to={CLIENT_PATHS.join} variant="light">
      Join {eventName} to share yours
    </Button>
  );
}

function NotFound() {
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm">
        <Title order={1} fz="h2">
          Memory not found
        </Title>
        <Text c="dimmed" ta="center">
          This memory does not exist, or it was removed.
        </Text>
        <BackToGallery />
      </Stack>
    </Center>
  );
}

function MemoryView({ id }: { id: string }) {
  const eventName = useEventName();
  const query = useMemory(id);
  const memory = query.data;

  useEffect(() => {
    if (!memory) return;
    const previous = document.title;
    document.title = `${memory.username}'s memory · ${eventName}`;
    return () => {
      document.title = previous;
    };
  }, [memory, eventName]);

  if (query.isPending) {
    return <MemoriesLoading mih="50vh" />;
  }
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 400))
      return <NotFound />;
    return (
      <Alert
        color="red"
        variant="light"
        title="This memory could not be loaded"
        icon={<IconAlertTriangle />}
        mt="lg"
      >
        {error.message}
      </Alert>
    );
  }

  const data = query.data;
  const text = shareText(data.text, eventName);
  const url = memoryPageUrl(data._id);
  return (
    <Stack gap="md" pt="lg" maw={900} mx="auto">
      <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }} component="article">
        <Stack gap="md">
          <MemoryMediaView memory={data} size="full" />
          <Stack gap={2}>
            <Title order={1} fz="h3" className={classes.author}>
              {data.username}
            </Title>
            <Text size="sm" c="dimmed">
              <TimeAgo iso={data.createdAt} long inherit /> at {eventName}
            </Text>
          </Stack>
          <Text size="lg" className={classes.caption}>
            {data.text}
          </Text>
          <Group gap="sm">
            <DownloadButton memory={data} />
            <ShareButtons title={eventName} text={text} url={url} />
          </Group>
        </Stack>
      </Paper>
      <Group justify="center">
        <BackToGallery />
      </Group>
    </Stack>
  );
}

/**
 * /memory?id=… and the share link /m/:id: one memory on its own page, the page a shared link
 * opens (no join needed).
 */
export default function MemoryPage() {
  useMemoryEvents();
  const [params] = useSearchParams();
  const { id: sharedId } = useParams();
  const id = (sharedId ?? params.get('id'))?.trim() ?? '';
  if (!id) return <NotFound />;
  return <MemoryView key={id} id={id} />;
}

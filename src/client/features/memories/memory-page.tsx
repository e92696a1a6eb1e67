import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPhoto } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { translate, useMessages, useT } from '../../i18n/language.ts';
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
  const { t, rich } = useMessages();
  const [username] = useStoredUsername();
  const eventName = useEventName();
  return username ? (
    <Button
      component={Link}
      to={CLIENT_PATHS.home}
      variant="subtle"
      leftSection={<IconPhoto size={18} />}
    >
      {t('memories.seeAll')}
    </Button>
  ) : (
    <Button component={Link} to={CLIENT_PATHS.join} variant="light">
      {rich('memories.joinToShare', { eventName: <bdi>{eventName}</bdi> })}
    </Button>
  );
}

function NotFound() {
  const t = useT();
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm">
        <Title order={1} fz="h2">
          {t('memories.notFoundTitle')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('memories.notFoundText')}
        </Text>
        <BackToGallery />
      </Stack>
    </Center>
  );
}

function MemoryView({ id }: { id: string }) {
  const { t, rich } = useMessages();
  const eventName = useEventName();
  const query = useMemory(id);
  const memory = query.data;

  useEffect(() => {
    if (!memory) return;
    const previous = document.title;
    document.title = translate('memories.pageTitle', { username: memory.username, eventName });
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
        title={t('memories.loadFailed')}
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
            <Title order={1} fz="h3" className={classes.author} dir="auto">
              {data.username}
            </Title>
            <Text size="sm" c="dimmed">
              {rich('memories.postedAt', {
                when: <TimeAgo iso={data.createdAt} long inherit />,
                eventName: <bdi>{eventName}</bdi>,
              })}
            </Text>
          </Stack>
          <Text size="lg" className={classes.caption} dir="auto">
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

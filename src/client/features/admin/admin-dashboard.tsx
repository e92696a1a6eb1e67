import {
  Badge,
  CloseButton,
  Group,
  Loader,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconCalendarEvent,
  IconChartBar,
  IconChartPie,
  IconClockHour4,
  IconFlag,
  IconMessages,
  IconMicrophone,
  IconPhoto,
  IconSearch,
  IconSettings,
  IconSpeakerphone,
} from '@tabler/icons-react';
import { type ComponentType, useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ADMIN_LIMITS, ADMIN_TEXTS, WALL_TEXTS } from '../../../shared/constants.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { HiddenPageHeading } from '../../components/page-heading.tsx';
import { VirtualGrid } from '../../components/virtual-grid.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { memoriesOf, useAdminMedia } from './api/admin-media.ts';
import { useDeleteAdminMedia } from './api/delete-admin-media.ts';
import { isGone, isUnauthorized } from './api/errors.ts';
import { useSessionExpiry } from './use-session-expiry.ts';
import { AdminDeletions } from './admin-deletions.tsx';
import { AdminOverview } from './admin-overview.tsx';
import { AdminPendingMemories, usePendingCount } from './admin-pending-memories.tsx';
import { AdminReports, useReportsCount } from './admin-reports.tsx';
import { AdminProgramme } from './admin-programme.tsx';
import { AdminAnnouncements } from './admin-announcements.tsx';
import { DownloadAllButton } from './download-all-button.tsx';
import { OpenWallLink } from './open-wall-link.tsx';
import { AdminQuestions } from './admin-questions.tsx';
import { AdminSettings } from './admin-settings.tsx';
import { RetentionBanner } from './retention-banner.tsx';
import { AdminSpeakers } from './admin-speakers.tsx';
import { AdminMemoryCard } from './admin-memory-card.tsx';
import { DeleteMemoryModal } from './delete-memory-modal.tsx';
import { useAdminLiveUpdates } from './use-admin-live-updates.ts';
import classes from './admin-screen.module.css';
import { LoadMoreButton } from './load-more-button.tsx';
import { EmptyList, LoadError } from './list-notices.tsx';

const GRID_COLS = { base: 2, sm: 3, md: 4 };
/** The console's tabs, as `?tab=` names them, in order, with their label and icon. */
const CONSOLE_TABS = [
  { value: 'overview', label: 'Overview', Icon: IconChartBar },
  { value: 'memories', label: 'Memories', Icon: IconPhoto },
  { value: 'pending', label: WALL_TEXTS.awaitingApproval, Icon: IconClockHour4 },
  { value: 'reports', label: 'Reports', Icon: IconFlag },
  { value: 'questions', label: 'Questions', Icon: IconMessages },
  { value: 'polls', label: 'Polls', Icon: IconChartPie },
  { value: 'programme', label: 'Programme', Icon: IconCalendarEvent },
  { value: 'announcements', label: 'Announcements', Icon: IconSpeakerphone },
  { value: 'speakers', label: 'Speakers', Icon: IconMicrophone },
  { value: 'settings', label: 'Settings', Icon: IconSettings },
];
/** The tabs whose panel is a screen of its own (the memories tab is the dashboard's). */
const TAB_PANELS = {
  overview: AdminOverview,
  pending: AdminPendingMemories,
  reports: AdminReports,
  questions: AdminQuestions,
  programme: AdminProgramme,
  announcements: AdminAnnouncements,
  speakers: AdminSpeakers,
  settings: AdminSettings,
};
const memoryKey = (memory: Memory) => memory._id;

/** A tab's panel: it acts with the admin's token and ends the session when it is refused. */
type ConsolePanel = ComponentType<{ token: string; onExpired: () => void }>;

/** The tabs another feature gives the console, composed by the app: the polls. */
export interface ConsolePanels {
  polls: ConsolePanel;
}

/** The count on a tab (memories awaiting approval, reported memories); nothing when none. */
function TabCount({ value, count }: { value: string; count: string }) {
  const reports = value === 'reports';
  return (
    <Badge
      size="sm"
      circle={count.length < 3}
      color={reports ? 'red' : undefined}
      aria-label={reports ? `${count} reported` : undefined}
    >
      {count}
    </Badge>
  );
}

function GridSkeleton() {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="sm" aria-busy="true" aria-label="Loading memories">
      {Array.from({ length: 8 }, (_, index) => (
        <Skeleton key={index} h={260} radius="md" />
      ))}
    </SimpleGrid>
  );
}

/**
 * The organiser's console (decision 160): Overview (live figures, charts, exports), Memories
 * (search, the grid with Delete, the moderation log), Questions, Polls, Programme, Speakers and
 * Settings. The grid keeps only the rows near the viewport in the DOM: "Load more" can page
 * through every memory.
 */
export function AdminDashboard({
  token,
  onExpired,
  panels,
}: {
  token: string;
  onExpired: () => void;
  panels: ConsolePanels;
}) {
  // The open tab is in the address (`?tab=`), so a reload or a shared link keeps it.
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = CONSOLE_TABS.some(({ value }) => value === asked) ? asked : 'overview';
  const setTab = (value: string | null) =>
    setParams(value && value !== 'overview' ? { tab: value } : {}, { replace: true });
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, ADMIN_LIMITS.searchDebounceMs);
  const media = useAdminMedia(token, debouncedSearch);
  const deletion = useDeleteAdminMedia(token);
  const [confirming, setConfirming] = useState<Memory | null>(null);
  // Deleted here or elsewhere: hidden at once, and kept hidden if a poll that started earlier
  // still brings them back.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());

  const hide = useCallback((id: string) => {
    setHidden((current) => (current.has(id) ? current : new Set(current).add(id)));
  }, []);
  const unhide = useCallback((id: string) => {
    setHidden((current) => {
      const next = new Set(current);
      next.delete(id);
      return next;
    });
  }, []);

  useAdminLiveUpdates(hide);
  const pendingCount = usePendingCount(token);
  const reportsCount = useReportsCount(token);
  const counts: Record<string, string | null> = { pending: pendingCount, reports: reportsCount };

  const expired = useSessionExpiry(media.error, onExpired);

  const memories = useMemo(
    () => memoriesOf(media.data, (memory) => !hidden.has(memory._id)),
    [media.data, hidden],
  );

  const renderCard = useCallback(
    (memory: Memory) => <AdminMemoryCard memory={memory} onDelete={setConfirming} />,
    [],
  );

  const confirmDelete = (memory: Memory) => {
    setConfirming(null);
    hide(memory._id);
    deletion.mutate(memory._id, {
      onSuccess: () => toastDone(`Deleted the memory by ${memory.username}.`),
      onError: (error) => {
        // Someone deleted it first: what the admin wanted has happened.
        if (isGone(error)) return;
        unhide(memory._id);
        if (isUnauthorized(error)) {
          onExpired();
          return;
        }
        console.error('Deleting a memory failed', error);
        toastFailed(error, 'Please try again.', 'Could not delete the memory');
      },
    });
  };

  const searching = search !== debouncedSearch || (media.isFetching && media.isPlaceholderData);
  const query = debouncedSearch.trim();

  return (
    <Tabs
      value={tab}
      onChange={(value) => setTab(value)}
      keepMounted={false}
      activateTabWithKeyboard={false}
    >
      <HiddenPageHeading>Organiser's console</HiddenPageHeading>
      <RetentionBanner token={token} />
      <Tabs.List mb="sm">
        {CONSOLE_TABS.map(({ value, label, Icon }) => (
          <Tabs.Tab
            key={value}
            value={value}
            leftSection={<Icon size={18} />}
            // No section at all without a count: an empty one would still be drawn.
            rightSection={counts[value] ? <TabCount value={value} count={counts[value]} /> : null}
          >
            {label}
          </Tabs.Tab>
        ))}
      </Tabs.List>

      {Object.entries({ ...TAB_PANELS, ...panels }).map(([value, Panel]) => (
        <Tabs.Panel key={value} value={value}>
          <Panel token={token} onExpired={onExpired} />
        </Tabs.Panel>
      ))}

      <Tabs.Panel value="memories">
        <Stack gap="sm">
          <Group gap="sm">
            <DownloadAllButton token={token} onExpired={onExpired} />
            <OpenWallLink />
          </Group>
          <div className={classes.toolbar}>
            <TextInput
              type="search"
              aria-label="Search memories"
              placeholder={ADMIN_TEXTS.searchPlaceholder}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              maxLength={ADMIN_LIMITS.searchMax}
              leftSection={<IconSearch size={18} aria-hidden />}
              rightSection={
                searching ? (
                  <Loader size="xs" aria-label="Searching" />
                ) : search ? (
                  <CloseButton aria-label="Clear search" onClick={() => setSearch('')} />
                ) : null
              }
            />
          </div>

          {media.isError && !expired && <LoadError>{ADMIN_TEXTS.fetchError}</LoadError>}

          {media.isPending ? (
            <GridSkeleton />
          ) : !media.data ? null : memories.length === 0 ? (
            <EmptyList icon={IconPhoto}>
              {query ? `No memories match “${query}”.` : 'No memories yet.'}
            </EmptyList>
          ) : (
            <>
              <Text fz="sm" c="dimmed" aria-live="polite">
                {memories.length}
                {media.hasNextPage ? '+' : ''} {memories.length === 1 ? 'memory' : 'memories'}
                {query ? ` matching “${query}”` : ''}
              </Text>
              <VirtualGrid
                items={memories}
                cols={GRID_COLS}
                spacing="sm"
                getKey={memoryKey}
                renderItem={renderCard}
              />
              <LoadMoreButton list={media} />
            </>
          )}
          <Title order={2} fz="lg" mt="lg">
            Recent deletions
          </Title>
          <AdminDeletions token={token} onExpired={onExpired} />
        </Stack>
      </Tabs.Panel>

      <DeleteMemoryModal
        memory={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={confirmDelete}
      />
    </Tabs>
  );
}

import { ActionIcon, Indicator, Popover, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { AfterFirstRender } from '../../components/after-first-render.tsx';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useT } from '../../i18n/language.ts';
import { useAnnouncements } from './api/get-announcements.ts';
import classes from './announcements.module.css';

/** The header's bell: today's announcements, newest first, with how many there are. */
export function AnnouncementsBell() {
  const t = useT();
  const announcements = useAnnouncements();
  const list = announcements.data ?? [];
  const button = (
    <ActionIcon
      variant="subtle"
      size="lg"
      aria-label={t('announcements.bellLabel', { count: list.length })}
    >
      <IconBell size={20} aria-hidden />
    </ActionIcon>
  );
  return (
    <Indicator label={list.length} disabled={list.length === 0} size={16} offset={6} color="red">
      {/* Its popover comes with the screen's second render (decision 254). */}
      <AfterFirstRender first={button}>
        <Popover position="bottom-end" width={340} shadow="md" withArrow trapFocus>
          <Popover.Target>{button}</Popover.Target>
          <Popover.Dropdown>
            <Text fw={700} mb="xs" component="h2" fz="md">
              {t('announcements.todays')}
            </Text>
            {list.length === 0 ? (
              <Text c="dimmed" fz="sm">
                {t('announcements.none')}
              </Text>
            ) : (
              <Stack gap="sm" component="ul" className={classes.list}>
                {list.map((announcement) => (
                  <li key={announcement._id}>
                    <Text fz="sm" dir="auto" className={classes.listText}>
                      {announcement.text}
                    </Text>
                    <TimeAgo iso={announcement.createdAt} fz="xs" c="dimmed" />
                  </li>
                ))}
              </Stack>
            )}
          </Popover.Dropdown>
        </Popover>
      </AfterFirstRender>
    </Indicator>
  );
}

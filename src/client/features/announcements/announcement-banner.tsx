import { CloseButton, Paper, Text } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { WatchRequest } from '../../../shared/events.ts';
import type { Announcement } from '../../../shared/schemas/announcement.ts';
import { useT } from '../../i18n/language.ts';
import { useAnnouncements } from './api/get-announcements.ts';
import classes from './announcements.module.css';

/** The address a pushed announcement opens: `?announcement=<id>` shows it in the banner. */
const ANNOUNCEMENT_PARAM = 'announcement';

/**
 * The banner of an announcement that just arrived (decision 239), on top of the screen until it
 * is dismissed; a newer one replaces it. Also the one a notification opened the app on
 * (`?announcement=<id>`). `size="projector"`: large, for a room's screen or the wall, which hear
 * `room`'s announcements too.
 */
export function AnnouncementBanner({
  size = 'page',
  room,
}: {
  size?: 'page' | 'projector';
  room?: WatchRequest | null | undefined;
}) {
  const t = useT();
  const [arrived, setArrived] = useState<Announcement | null>(null);
  const [params, setParams] = useSearchParams();
  const opened = params.get(ANNOUNCEMENT_PARAM);
  const announcements = useAnnouncements({ onArrival: setArrived, room });
  const shown =
    arrived ?? (opened ? announcements.data?.find((item) => item._id === opened) : undefined);
  if (!shown) return null;
  const dismiss = () => {
    setArrived(null);
    if (opened) {
      const next = new URLSearchParams(params);
      next.delete(ANNOUNCEMENT_PARAM);
      setParams(next, { replace: true });
    }
  };
  return (
    <Paper
      role="status"
      aria-live="polite"
      className={classes.banner}
      data-size={size}
      shadow="md"
      radius={size === 'projector' ? 'lg' : 'md'}
    >
      <IconSpeakerphone className={classes.bannerIcon} aria-hidden />
      <div className={classes.bannerBody}>
        <Text className={classes.bannerLabel}>{t('announcements.announcement')}</Text>
        <Text className={classes.bannerText} dir="auto">
          {shown.text}
        </Text>
      </div>
      <CloseButton
        aria-label={t('announcements.dismiss')}
        onClick={dismiss}
        size={size === 'projector' ? 'xl' : 'lg'}
        className={classes.bannerClose}
      />
    </Paper>
  );
}

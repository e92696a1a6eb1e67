import { AnnouncementBanner } from '../../features/announcements/announcement-banner.tsx';
import { AnnouncementsBell } from '../../features/announcements/announcements-bell.tsx';
import { ScreenProviders } from '../screen-providers.tsx';

/**
 * The frame's parts of the announcements (decision 239): the header's bell and the banner over
 * the screen. The frame has no providers of its own and loads without TanStack Query; these load
 * after it, with the screens' providers (the one query client, shared with every screen).
 */
export default function FrameAnnouncements({ part }: { part: 'bell' | 'banner' }) {
  return (
    <ScreenProviders>
      {part === 'bell' ? <AnnouncementsBell /> : <AnnouncementBanner />}
    </ScreenProviders>
  );
}

import { AnnouncementBanner } from '../../features/announcements/announcement-banner.tsx';
import WallScreen from '../../features/wall/wall-screen.tsx';

/** /wall: the photo wall, with the event's announcements over it as they arrive (decision 239). */
export default function WallRoute() {
  return (
    <>
      <AnnouncementBanner size="projector" />
      <WallScreen />
    </>
  );
}

import { Anchor, Button, Group } from '@mantine/core';
import { IconArrowLeft, IconCalendarEvent, IconLogout, IconMessages } from '@tabler/icons-react';
import { Suspense, lazy } from 'react';
import { Link, useNavigate } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { ColorSchemeToggle } from '../../components/color-scheme-toggle.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { AttendeeMenu } from '../../features/privacy/attendee-menu.tsx';
import { useT } from '../../i18n/language.ts';
import { useLogoUrl } from '../../lib/branding.ts';
import { useEventName } from '../../lib/event-name.ts';
import { useAttendeeToken } from '../../lib/attendee-token.ts';
import { useStoredUsername } from '../../lib/username.ts';
import '../../components/app-header.css';
import classes from './app-header.module.css';

const FrameAnnouncements = lazy(() => import('./frame-announcements.tsx'));

/**
 * The header bar: logo and back arrow to /home, the schedule, the Q&A Room, today's
 * announcements (a bell), colour mode, the
 * signed-in username (a menu: the language, download or delete their data) and Logout; without
 * a username, the language control itself.
 */
export function AppHeader() {
  const navigate = useNavigate();
  const t = useT();
  const eventName = useEventName();
  const logoUrl = useLogoUrl();
  const [username, , removeUsername] = useStoredUsername();
  const [, , removeAttendeeToken] = useAttendeeToken();

  const logout = () => {
    removeUsername();
    removeAttendeeToken();
    void navigate(CLIENT_PATHS.join);
  };

  return (
    // The frame and the left side are the page shell's (src/server/http/app-shell.ts): the
    // same elements and classes, so the header the code renders replaces it without a jump.
    <header className="app-header">
      <div className="app-header-bar">
        <div className="app-header-start">
          <Link to={CLIENT_PATHS.home} className="app-header-back" aria-label={t('app.back')}>
            <IconArrowLeft size={22} aria-hidden className="confab-flip-rtl" />
          </Link>
          <Link
            to={CLIENT_PATHS.home}
            className="app-header-logo"
            aria-label={t('app.homeLink', { name: eventName })}
          >
            <img src={logoUrl} alt="" width={32} height={32} className="app-header-logo-image" />
            <p className="app-header-name" dir="auto">
              {eventName}
            </p>
          </Link>
        </div>
        <Group gap={4} wrap="nowrap" justify="flex-end" className={classes.end}>
          {/* From a tablet up; a phone's bar has no room left (it reaches it from /home). */}
          <Button
            component={Link}
            to={CLIENT_PATHS.schedule}
            variant="subtle"
            leftSection={<IconCalendarEvent size={18} />}
            visibleFrom="sm"
          >
            {t('app.schedule')}
          </Button>
          <Button
            component={Link}
            to={CLIENT_PATHS.speakersCard}
            variant="light"
            leftSection={<IconMessages size={18} />}
            visibleFrom="sm"
          >
            {t('app.qaRoom')}
          </Button>
          <Anchor
            component={Link}
            to={CLIENT_PATHS.speakersCard}
            hiddenFrom="sm"
            fw={700}
            fz="sm"
            className={classes.touchLink}
          >
            {t('app.qaRoom')}
          </Anchor>
          {/* The bell's place is kept while its code loads: the bar does not shift. */}
          <Suspense fallback={<span className={classes.bellPlace} />}>
            <FrameAnnouncements part="bell" />
          </Suspense>
          <ColorSchemeToggle />
          {/* Someone who has not joined (a speaker, a reader of the programme) has no menu:
              the language control sits in the bar itself, its label for screen readers. */}
          {!username && (
            <LanguageSelect size="xs" miw={92} label={undefined} aria-label={t('language.label')} />
          )}
          {username && <AttendeeMenu username={username} className={classes.username} />}
          {username && (
            <Button
              variant="default"
              onClick={logout}
              rightSection={<IconLogout size={18} className="confab-flip-rtl" />}
              size="sm"
              px="xs"
              classNames={{ section: classes.logoutIcon }}
            >
              {/* On a narrow phone the icon alone, so the username fits; still named Logout. */}
              <span className={classes.logoutLabel}>{t('app.logout')}</span>
            </Button>
          )}
        </Group>
      </div>
    </header>
  );
}

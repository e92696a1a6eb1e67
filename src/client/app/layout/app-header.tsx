import { ActionIcon, Anchor, Button, Group, Image, Text } from '@mantine/core';
import { IconArrowLeft, IconLogout, IconMessages } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { TEXTS } from '../../../shared/constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { useEventName } from '../../lib/event-name.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import './app-header.css';
import classes from './app-header.module.css';

/** The header bar: logo and back arrow to /home, the Q&A room, colour mode and Logout. */
export function AppHeader() {
  const navigate = useNavigate();
  const eventName = useEventName();
  const [username, , removeUsername] = useStoredUsername();

  const logout = () => {
    removeUsername();
    void navigate(CLIENT_PATHS.join);
  };

  return (
    // The frame and the left side are the page shell's (src/server/http/app-shell.ts): same
    // classes, same places, so the header the code renders replaces it without a jump.
    <header className="app-header">
      <div className="app-header-bar">
        <div className="app-header-start">
          <ActionIcon
            component={Link}
            to={CLIENT_PATHS.home}
            variant="subtle"
            size="lg"
            radius="xl"
            aria-label="Back"
          >
            <IconArrowLeft size={22} />
          </ActionIcon>
          <Anchor
            component={Link}
            to={CLIENT_PATHS.home}
            underline="never"
            className="app-header-logo"
            aria-label={`${eventName} home`}
          >
            <Image src="/logo.svg" alt="" className="app-header-logo-image" />
            <Text className="app-header-name">{eventName}</Text>
          </Anchor>
        </div>
        <Group gap={4} wrap="nowrap">
          <Button
            component={Link}
            to={CLIENT_PATHS.speakersCard}
            variant="light"
            leftSection={<IconMessages size={18} />}
            visibleFrom="sm"
          >
            Q&amp;A room
          </Button>
          <Anchor
            component={Link}
            to={CLIENT_PATHS.speakersCard}
            hiddenFrom="sm"
            fw={700}
            fz="sm"
            className={classes.touchLink}
          >
            {TEXTS.qaRoom}
          </Anchor>
          <ColorSchemeToggle />
          {username && (
            <Button
              variant="default"
              onClick={logout}
              rightSection={<IconLogout size={18} />}
              size="sm"
              px="xs"
            >
              {TEXTS.logout}
            </Button>
          )}
        </Group>
      </div>
    </header>
  );
}

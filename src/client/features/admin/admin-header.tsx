import { Badge, Box, Button, Group, Image, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { TEXTS } from '../../../shared/constants.ts';
import { ColorSchemeToggle } from '../../components/color-scheme-toggle.tsx';
import { useLogoUrl } from '../../lib/branding.ts';
import { useEventName } from '../../lib/event-name.ts';
import '../../components/app-header.css';
import classes from './admin-screen.module.css';

/**
 * The admin screen's own bar: the attendee header's Logout and Q&A links are about the
 * attendee's username, which has nothing to do with the admin session.
 */
export function AdminHeader({ onLogout }: { onLogout?: (() => void) | undefined }) {
  const eventName = useEventName();
  const logoUrl = useLogoUrl();
  return (
    <Box component="header" className="app-header">
      <Group justify="space-between" wrap="nowrap" h="100%" px="sm" maw={1200} mx="auto">
        <div className={classes.brand}>
          <Image src={logoUrl} alt="" w={32} h={32} fit="contain" />
          <Text fw={800} fz="lg" truncate visibleFrom="xs">
            {eventName}
          </Text>
          <Badge variant="light" size="lg" radius="sm">
            Admin
          </Badge>
        </div>
        <Group gap={6} wrap="nowrap">
          <ColorSchemeToggle />
          {onLogout && (
            <Button
              variant="default"
              size="sm"
              px="xs"
              onClick={onLogout}
              rightSection={<IconLogout size={18} />}
            >
              {TEXTS.logout}
            </Button>
          )}
        </Group>
      </Group>
    </Box>
  );
}

import { Anchor, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconMicrophone } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TEXTS } from '../../shared/constants.ts';
import { CLIENT_PATHS } from '../../shared/routes.ts';

/**
 * The footer of the join page and /home: the way in for speakers (sign up, or log in to the
 * dashboard). The admin console's address is in the README, not linked (decision 164).
 */
export function AppFooter() {
  return (
    <Group component="footer" justify="center" gap={6} py="md" px="sm" wrap="wrap">
      <IconMicrophone size={16} aria-hidden />
      <Text size="sm" fw={600}>
        {TEXTS.imASpeaker}
      </Text>
      <Text size="sm" c="dimmed" aria-hidden>
        ·
      </Text>
      <Anchor component={Link} to={CLIENT_PATHS.speakerForm} size="sm" fw={600} py={6}>
        Sign up<VisuallyHidden> as a speaker</VisuallyHidden>
      </Anchor>
      <Text size="sm" c="dimmed" aria-hidden>
        or
      </Text>
      <Anchor component={Link} to={CLIENT_PATHS.speakerLogin} size="sm" fw={600} py={6}>
        Log in<VisuallyHidden> as a speaker</VisuallyHidden>
      </Anchor>
    </Group>
  );
}

import { Anchor, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconMicrophone } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ReactNode } from 'react';
import { CLIENT_PATHS } from '../../shared/routes.ts';
import { useMessages } from '../i18n/language.ts';

/** The words a screen reader needs that the eye reads from the place (" as a speaker"). */
const hidden = (chunks: ReactNode[]) => <VisuallyHidden>{chunks}</VisuallyHidden>;

/**
 * The footer of the join page and /home: the way in for speakers (sign up, or log in to the
 * dashboard). The admin console's address is in the README, not linked (decision 164).
 */
export function AppFooter() {
  const { t, rich } = useMessages();
  return (
    <Group component="footer" justify="center" gap={6} py="md" px="sm" wrap="wrap">
      <IconMicrophone size={16} aria-hidden />
      <Text size="sm" fw={600}>
        {t('app.imASpeaker')}
      </Text>
      <Text size="sm" c="dimmed" aria-hidden>
        ·
      </Text>
      <Anchor component={Link} to={CLIENT_PATHS.speakerForm} size="sm" fw={600} py={6}>
        {rich('app.speakerSignUp', { hidden })}
      </Anchor>
      <Text size="sm" c="dimmed" aria-hidden>
        {t('app.speakerOr')}
      </Text>
      <Anchor component={Link} to={CLIENT_PATHS.speakerLogin} size="sm" fw={600} py={6}>
        {rich('app.speakerLogIn', { hidden })}
      </Anchor>
    </Group>
  );
}

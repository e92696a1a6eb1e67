import {
  ActionIcon,
  Box,
  VisuallyHidden,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useT } from '../i18n/language.ts';

/**
 * Light/dark switch; the choice is remembered across reloads. What it shows and says is chosen
 * by the page's colour scheme in CSS, not at render, so the page prerendered in light markup
 * hydrates as it is in either scheme (decision 106).
 */
export function ColorSchemeToggle() {
  const t = useT();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  return (
    <ActionIcon
      variant="default"
      size="lg"
      radius="xl"
      onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}
    >
      <Box component="span" darkHidden>
        <IconMoon size={20} aria-hidden />
        <VisuallyHidden component="span">{t('app.darkMode')}</VisuallyHidden>
      </Box>
      <Box component="span" lightHidden>
        <IconSun size={20} aria-hidden />
        <VisuallyHidden component="span">{t('app.lightMode')}</VisuallyHidden>
      </Box>
    </ActionIcon>
  );
}

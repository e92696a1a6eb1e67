import { Button } from '@mantine/core';
import { IconPresentation } from '@tabler/icons-react';
import { WALL_TEXTS } from '../../../shared/constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';

/** "Open the wall": the projector's slideshow (`/wall`), in a window of its own. */
export function OpenWallLink() {
  return (
    <Button
      component="a"
      href={CLIENT_PATHS.wall}
      target="_blank"
      rel="noopener"
      variant="default"
      leftSection={<IconPresentation size={18} aria-hidden />}
    >
      {WALL_TEXTS.openWall}
    </Button>
  );
}

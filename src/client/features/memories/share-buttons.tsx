import { Button, Group } from '@mantine/core';
import { IconBrandX, IconShare } from '@tabler/icons-react';
import { useT } from '../../i18n/language.ts';
import { canShare, canShareFiles, shareWithDevice, xIntentUrl } from './share-links.ts';

interface ShareButtonsProps {
  title: string;
  text: string;
  url?: string | undefined;
  /** Files for the Web Share API, where the device can share them. */
  files?: File[];
}

/** "Post on X" (the X web intent) and, where the device has it, the Web Share API. */
export function ShareButtons({ title, text, url, files }: ShareButtonsProps) {
  const t = useT();
  return (
    <Group justify="center" gap="sm">
      <Button
        component="a"
        href={xIntentUrl(text, url)}
        target="_blank"
        rel="noopener noreferrer"
        color="dark"
        leftSection={<IconBrandX size={18} />}
      >
        {t('share.postOnX')}
      </Button>
      {canShare() && (
        <Button
          variant="light"
          leftSection={<IconShare size={18} />}
          onClick={() =>
            void shareWithDevice({
              title,
              text,
              ...(url ? { url } : {}),
              ...(files ? { files } : {}),
            }).catch(() => undefined)
          }
        >
          {files && canShareFiles(files) ? t('share.photos') : t('share.other')}
        </Button>
      )}
    </Group>
  );
}

import '@mantine/dropzone/styles.layer.css';
import {
  AspectRatio,
  Box,
  Button,
  CloseButton,
  FileButton,
  Group,
  Input,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhotoPlus, IconPhotoOff, IconPlus, IconVideo } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useMessages, useT } from '../../i18n/language.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { isDrawableImage } from '../../lib/drawable-files.ts';
import {
  ACCEPTED_FILES,
  ACCEPT_ATTRIBUTE,
  type SelectedFile,
  type SelectedFiles,
} from './use-selected-files.ts';
import classes from './memories.module.css';

/** "Supported formats: JPG, PNG, …, MOV (up to 15MB each)": what the server really takes. */
export function useFormatsHint(): string {
  const { t, language } = useMessages();
  const config = useAppConfig().data;
  if (!config) return t('memories.formatsAny');
  return t('memories.formats', {
    formats: new Intl.ListFormat(language, { type: 'unit', style: 'short' }).format(
      config.acceptedFormats,
    ),
    megabytes: config.maxUploadMb,
  });
}

function Preview({
  item,
  onRemove,
  disabled,
}: {
  item: SelectedFile;
  onRemove: () => void;
  disabled: boolean;
}) {
  const t = useT();
  // HEIC and the like: browsers other than Safari cannot draw them (the server converts).
  const [broken, setBroken] = useState(item.kind === 'image' && !isDrawableImage(item.file));
  return (
    <Box className={classes.preview}>
      <AspectRatio ratio={1}>
        {broken ? (
          <Stack gap={4} align="center" justify="center" className={classes.previewFallback}>
            <IconPhotoOff size={28} aria-hidden />
            <Text size="xs" ta="center" lineClamp={2} px={4} dir="auto">
              {item.file.name}
            </Text>
          </Stack>
        ) : item.kind === 'image' ? (
          <img
            src={item.previewUrl}
            alt={t('memories.previewOf', { fileName: item.file.name })}
            className={classes.previewMedia}
            onError={() => setBroken(true)}
          />
        ) : (
          <video
            src={item.previewUrl}
            className={classes.previewMedia}
            muted
            playsInline
            preload="metadata"
            aria-label={t('memories.previewOf', { fileName: item.file.name })}
            onError={() => setBroken(true)}
          />
        )}
      </AspectRatio>
      {item.kind === 'video' && !broken && (
        <ThemeIcon size="sm" radius="xl" color="dark" className={classes.previewBadge} aria-hidden>
          <IconVideo size={14} />
        </ThemeIcon>
      )}
      <CloseButton
        className={classes.previewRemove}
        size="lg"
        radius="xl"
        variant="filled"
        aria-label={t('memories.removeFile', { fileName: item.file.name })}
        onClick={onRemove}
        disabled={disabled}
      />
    </Box>
  );
}

/**
 * Picks the photos and videos of a post: a drop zone (tap to choose on a phone) until some are
 * picked, then their previews, each with a remove button, and "Add More Images".
 */
export function MemoryFilePicker({
  selection,
  error,
  disabled = false,
  label,
}: {
  selection: SelectedFiles;
  error?: ReactNode;
  disabled?: boolean;
  label?: string;
}) {
  const t = useT();
  const hint = useFormatsHint();
  const hasFiles = selection.selected.length > 0;
  return (
    <Input.Wrapper
      label={label ?? t('memories.filesLabel')}
      required
      description={hint}
      error={error}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    >
      {hasFiles ? (
        <Stack gap="sm" mt={6}>
          <SimpleGrid cols={{ base: 3, xs: 4 }} spacing="xs">
            {selection.selected.map((item) => (
              <Preview
                key={item.id}
                item={item}
                disabled={disabled}
                onRemove={() => selection.remove(item.id)}
              />
            ))}
          </SimpleGrid>
          <Group>
            <FileButton
              onChange={selection.add}
              accept={ACCEPT_ATTRIBUTE}
              multiple
              disabled={disabled}
            >
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  leftSection={<IconPlus size={18} />}
                  disabled={disabled}
                >
                  {t('memories.addMore')}
                </Button>
              )}
            </FileButton>
          </Group>
        </Stack>
      ) : (
        <Dropzone
          mt={6}
          onDrop={selection.add}
          onReject={(rejections: FileRejection[]) => selection.add(rejections.map((r) => r.file))}
          disabled={disabled}
          multiple
          className={classes.dropzone}
          accept={ACCEPTED_FILES}
          role="button"
        >
          <Stack align="center" gap={6} py="md" style={{ pointerEvents: 'none' }}>
            <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
              <IconPhotoPlus size={26} />
            </ThemeIcon>
            <Text fw={600} ta="center">
              {t('memories.dropzoneTap')}
            </Text>
            <Text size="sm" c="dimmed" ta="center" visibleFrom="sm">
              {t('memories.dropzoneDrag')}
            </Text>
          </Stack>
        </Dropzone>
      )}
    </Input.Wrapper>
  );
}

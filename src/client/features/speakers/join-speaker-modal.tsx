import '@mantine/dropzone/styles.layer.css';
import { Alert, CloseButton, Group, Image, Input, Text, TextInput, Textarea } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertTriangle, IconPhoto, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import {
  ACCEPTED_IMAGE_FILES,
  ACCEPTED_IMAGE_FORMAT_NAMES,
  LIMITS,
} from '../../../shared/constants.ts';
import { type Speaker, speakerFieldsSchema } from '../../../shared/schemas/speaker.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { localized } from '../../lib/validation-text.ts';
import { type Translate, useMessages, useT } from '../../i18n/language.ts';
import type { Language } from '../../../shared/i18n/languages.ts';
import { useCreateSpeaker } from './api/create-speaker.ts';
import { FormDialog } from '../../components/form-dialog.tsx';

const checkFields = localized(schemaResolver(speakerFieldsSchema, { sync: true }));

/**
 * The formats the server reads (the same list as its own answers), as a list of the language
 * shown: "JPG, PNG or AVIF". English is written as the product's British English writes it,
 * without a comma before "or".
 */
const imageFormats = (language: Language) =>
  new Intl.ListFormat(language === 'en' ? 'en-GB' : language, { type: 'disjunction' }).format(
    ACCEPTED_IMAGE_FORMAT_NAMES,
  );
const notAnImage = (t: Translate, language: Language) =>
  t('speakers.pictureNotImage', { formats: imageFormats(language) });
const ACCEPTED_TYPES: readonly string[] = Object.keys(ACCEPTED_IMAGE_FILES);
const ACCEPTED_ENDINGS = Object.values(ACCEPTED_IMAGE_FILES).flat();

/**
 * Whether a picked file is of a type the server reads: by its media type, or by its name when
 * the browser gives none (HEIC on most systems). An SVG is refused here, the moment it is picked.
 */
function readableImage(file: File): boolean {
  if (file.type) return ACCEPTED_TYPES.includes(file.type);
  const name = file.name.toLowerCase();
  return ACCEPTED_ENDINGS.some((ending) => name.endsWith(ending));
}

/** A local preview of the chosen picture; its object URL is released when it changes. */
function PicturePreview({ file }: { file: File }) {
  const t = useT();
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (image.current) image.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <Image ref={image} alt={t('speakers.chosenPicture')} w={96} h={96} radius="md" fit="cover" />
  );
}

export interface JoinSpeakerModalProps {
  opened: boolean;
  onClose: () => void;
  onJoined: (joined: { speaker: Speaker; secret: string }) => void;
}

/**
 * "Join as Speaker": Full Name, Stack, Bio and Picture, all required; "Upload Bio" sends them
 * ("Uploading . ." meanwhile). A server error shows in red inside the form, which keeps its
 * content.
 */
export function JoinSpeakerModal({ opened, onClose, onJoined }: JoinSpeakerModalProps) {
  const { t, language } = useMessages();
  const config = useAppConfig().data;
  const maxBytes = config?.maxUploadBytes ?? Infinity;
  const mutation = useCreateSpeaker();
  const form = useForm<{ name: string; stack: string; bio: string; picture: File | null }>({
    mode: 'controlled',
    initialValues: { name: '', stack: '', bio: '', picture: null },
    // The text fields as the server checks them (the shared schema), the picture as it can be
    // checked here: there, an image, within the upload limit.
    validate: (values) => {
      const errors = checkFields(values);
      const file = values.picture;
      if (!file) errors.picture = t('speakers.pictureRequired');
      else if (!readableImage(file)) errors.picture = notAnImage(t, language);
      else if (file.size > maxBytes)
        errors.picture = t('speakers.pictureTooLarge', { megabytes: config?.maxUploadMb ?? 0 });
      return errors;
    },
  });
  const picture = form.values.picture;
  const uploading = mutation.isPending;

  const submit = form.onSubmit((values) => {
    if (uploading || !values.picture) return;
    mutation.mutate(
      {
        name: values.name.trim(),
        stack: values.stack.trim(),
        bio: values.bio.trim(),
        picture: values.picture,
      },
      {
        onSuccess: ({ speaker, secret }) => {
          form.reset();
          mutation.reset();
          onClose();
          onJoined({ speaker, secret });
        },
      },
    );
  });

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t('speakers.joinTitle')}
      size="lg"
      onSubmit={submit}
      busy={uploading}
      actions={{
        cancel: t('speakers.cancel'),
        submit: t('speakers.uploadBio'),
        submitting: t('speakers.uploading'),
        icon: <IconUpload size={18} />,
      }}
    >
      <TextInput
        label={t('speakers.fullNameLabel')}
        required
        autoComplete="name"
        maxLength={LIMITS.speakerNameMax}
        {...form.getInputProps('name')}
      />
      <TextInput
        label={t('speakers.stackLabel')}
        placeholder={t('speakers.stackPlaceholder')}
        required
        maxLength={LIMITS.speakerStackMax}
        {...form.getInputProps('stack')}
      />
      <Textarea
        label={t('speakers.bioLabel')}
        required
        maxLength={LIMITS.speakerBioMax}
        {...form.getInputProps('bio')}
      />
      <Input.Wrapper
        label={t('speakers.pictureLabel')}
        required
        error={form.errors.picture}
        description={t('speakers.pictureDescription', {
          formats: imageFormats(language),
          megabytes: config?.maxUploadMb ?? 15,
        })}
      >
        {picture ? (
          <Group mt={6} gap="md" wrap="nowrap" align="center">
            <PicturePreview file={picture} />
            <Text size="sm" style={{ flex: 1, minWidth: 0 }} truncate dir="auto">
              {picture.name}
            </Text>
            <CloseButton
              aria-label={t('speakers.removePicture')}
              size="lg"
              onClick={() => form.setFieldValue('picture', null)}
            />
          </Group>
        ) : (
          <Dropzone
            mt={6}
            onDrop={(files: File[]) => {
              form.setFieldValue('picture', files[0] ?? null);
              form.validateField('picture');
            }}
            onReject={() => form.setFieldError('picture', notAnImage(t, language))}
            accept={ACCEPTED_IMAGE_FILES}
            multiple={false}
            role="button"
            radius="md"
          >
            <Group justify="center" gap="sm" mih={96} style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={36} />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconAlertTriangle size={36} />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconPhoto size={36} />
              </Dropzone.Idle>
              <Text ta="center" size="sm">
                {t('speakers.dropPicture')}
              </Text>
            </Group>
          </Dropzone>
        )}
      </Input.Wrapper>
      {mutation.isError && (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle />}>
          <Text c="var(--mantine-color-error)" size="sm" fw={600}>
            {errorMessage(mutation.error, t('speakers.uploadFailed'))}
          </Text>
        </Alert>
      )}
    </FormDialog>
  );
}

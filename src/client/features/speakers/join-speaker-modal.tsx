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
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { type Speaker, speakerFieldsSchema } from '../../../shared/schemas/speaker.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { useCreateSpeaker } from './api/create-speaker.ts';
import { FormDialog } from '../../components/form-dialog.tsx';

const checkFields = schemaResolver(speakerFieldsSchema, { sync: true });

/** The formats the server reads (the same list as its own answers). */
const IMAGE_FORMATS = `${ACCEPTED_IMAGE_FORMAT_NAMES.slice(0, -1).join(', ')} or ${ACCEPTED_IMAGE_FORMAT_NAMES.at(-1) ?? ''}`;
const NOT_AN_IMAGE = `The picture must be an image (${IMAGE_FORMATS})`;
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
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    if (image.current) image.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return <Image ref={image} alt="Chosen picture" w={96} h={96} radius="md" fit="cover" />;
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
      if (!file) errors.picture = 'Picture is required';
      else if (!readableImage(file)) errors.picture = NOT_AN_IMAGE;
      else if (file.size > maxBytes)
        errors.picture = `The picture is larger than ${config?.maxUploadMb ?? ''} MB`;
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
      title={QA_TEXTS.joinAsSpeaker}
      size="lg"
      onSubmit={submit}
      busy={uploading}
      actions={{
        cancel: 'Cancel',
        submit: QA_TEXTS.uploadBio,
        submitting: QA_TEXTS.uploading,
        icon: <IconUpload size={18} />,
      }}
    >
      <TextInput
        label="Full Name"
        required
        autoComplete="name"
        maxLength={LIMITS.speakerNameMax}
        {...form.getInputProps('name')}
      />
      <TextInput
        label="Stack"
        placeholder="e.g. React, Kotlin, cloud security"
        required
        maxLength={LIMITS.speakerStackMax}
        {...form.getInputProps('stack')}
      />
      <Textarea
        label="Bio"
        required
        maxLength={LIMITS.speakerBioMax}
        {...form.getInputProps('bio')}
      />
      <Input.Wrapper
        label="Picture"
        required
        error={form.errors.picture}
        description={`${IMAGE_FORMATS}, up to ${config?.maxUploadMb ?? 15} MB`}
      >
        {picture ? (
          <Group mt={6} gap="md" wrap="nowrap" align="center">
            <PicturePreview file={picture} />
            <Text size="sm" style={{ flex: 1, minWidth: 0 }} truncate>
              {picture.name}
            </Text>
            <CloseButton
              aria-label="Remove the picture"
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
            onReject={() => form.setFieldError('picture', NOT_AN_IMAGE)}
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
                Drop a photo here, or tap to choose a picture
              </Text>
            </Group>
          </Dropzone>
        )}
      </Input.Wrapper>
      {mutation.isError && (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle />}>
          <Text c="var(--mantine-color-error)" size="sm" fw={600}>
            {errorMessage(mutation.error, 'The bio could not be uploaded. Try again.')}
          </Text>
        </Alert>
      )}
    </FormDialog>
  );
}

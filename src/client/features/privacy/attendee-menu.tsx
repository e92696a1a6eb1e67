import { Box, Button, Menu, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconDownload, IconFileZip, IconTrash } from '@tabler/icons-react';
import { type ReactNode, startTransition, useState } from 'react';
import { useNavigate } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Removed } from '../../../shared/schemas/privacy.ts';
import { AfterFirstRender } from '../../components/after-first-render.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { translate, useMessages } from '../../i18n/language.ts';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { getAttendeeToken, useAttendeeToken } from '../../lib/attendee-token.ts';
import { useStoredUsername } from '../../lib/username.ts';

const EraseMeModal = lazyModal(
  () => import('./erase-me-modal.tsx').then((module) => module.default),
  (props: { opened: boolean }) => props.opened,
);

const NOTHING: Removed = { memories: 0, questions: 0, votes: 0, pollAnswers: 0, files: 0 };

/** The words only a screen reader says, before the name the button shows. */
const hidden = (chunks: ReactNode[]) => <VisuallyHidden component="span">{chunks}</VisuallyHidden>;

/**
 * The attendee's name in the header, opening the language control and what they can do with
 * their data: download it (as JSON, their photos as a ZIP) or delete it, after a confirmation. Once deleted, this device
 * forgets them too and the join page says what was removed.
 */
export function AttendeeMenu({ username, className }: { username: string; className?: string }) {
  const navigate = useNavigate();
  const { t, rich } = useMessages();
  const [, , removeUsername] = useStoredUsername();
  const [, , removeToken] = useAttendeeToken();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const save = async (which: 'data' | 'photos') => {
    const token = getAttendeeToken();
    try {
      if (!token) throw new ApiError(401);
      const api = await import('./api/export-me.ts');
      await (which === 'data' ? api.saveMyData(token) : api.saveMyPhotos(token));
    } catch (error) {
      toastFailed(error, translate('privacy.downloadFailed'));
    }
  };

  const erase = async () => {
    setDeleting(true);
    try {
      const [{ eraseMe }, { forgetThisDevice }] = await Promise.all([
        import('./api/erase-me.ts'),
        import('./forget-device.ts'),
      ]);
      const token = getAttendeeToken();
      let removed = NOTHING;
      let note: string | undefined;
      // What waits to be sent goes first: nothing of theirs may arrive after the erasure.
      await forgetThisDevice();
      if (token) {
        try {
          ({ removed } = await eraseMe(token));
        } catch (error) {
          // Erased already (another tab did it): this device forgets them all the same.
          if (!(error instanceof ApiError && error.status === 401)) throw error;
          note = errorMessage(error, translate('privacy.erasedTitle'));
        }
      }
      setConfirming(false);
      // The toasts of what they did before are about data that is gone.
      notifications.clean();
      toastDone(
        note ?? translate('privacy.erased', { ...removed }),
        translate('privacy.erasedTitle'),
      );
      // One render: the join page (which shows the toast it was sent with) and no username, so
      // no guard sends them there first without it. The router navigates in a transition.
      startTransition(() => {
        void navigate(CLIENT_PATHS.join, { replace: true, state: { toasts: true } });
        removeToken();
        removeUsername();
      });
    } catch (error) {
      toastFailed(error, translate('privacy.deleteFailed'));
    } finally {
      setDeleting(false);
    }
  };

  const button = (
    <Button
      variant="subtle"
      color="gray"
      size="sm"
      px={6}
      maw={{ base: '100%', sm: 260 }}
      rightSection={<IconChevronDown size={16} aria-hidden />}
      className={className}
      title={t('app.signedInAs', { name: username })}
      styles={{ label: { minWidth: 0, overflow: 'hidden' }, section: { flexShrink: 0 } }}
    >
      <Text component="span" fz="sm" fw={600} c="var(--mantine-color-text)" truncate>
        {rich('app.signedInAsHidden', { hidden, name: <bdi>{username}</bdi> })}
      </Text>
    </Button>
  );
  return (
    <>
      {/* Its menu comes with the screen's second render (decision 254). */}
      <AfterFirstRender first={button}>
        <Menu position="bottom-end" withinPortal shadow="md" width={270}>
          <Menu.Target>{button}</Menu.Target>
          <Menu.Dropdown>
            <Box px="sm" pt="xs" pb="sm">
              <LanguageSelect size="sm" />
            </Box>
            <Menu.Divider />
            <Menu.Label>{t('privacy.menuLabel')}</Menu.Label>
            <Menu.Item
              leftSection={<IconDownload size={18} aria-hidden />}
              onClick={() => void save('data')}
            >
              {t('privacy.downloadData')}
            </Menu.Item>
            <Menu.Item
              leftSection={<IconFileZip size={18} aria-hidden />}
              onClick={() => void save('photos')}
            >
              {t('privacy.downloadPhotos')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="red"
              // The red of errors: readable on the menu in light and dark modes (AA).
              c="var(--mantine-color-error)"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => setConfirming(true)}
            >
              {t('privacy.deleteData')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </AfterFirstRender>
      <EraseMeModal
        opened={confirming}
        deleting={deleting}
        onCancel={() => {
          if (!deleting) setConfirming(false);
        }}
        onConfirm={() => void erase()}
      />
    </>
  );
}

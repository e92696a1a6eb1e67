import { Affix, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconBellRinging } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { toastFailed } from '../../components/toast.ts';
import { translate, useT } from '../../i18n/language.ts';
import { useAppConfig } from '../../lib/app-config.ts';
import { useWithAttendeeToken } from '../../lib/attendee-token.ts';
import { storedText } from '../../lib/local-storage.ts';
import { deleteSubscription, saveSubscription } from './api/push-subscription.ts';

/** Where this device stands with announcements by Web Push. */
type PushState = 'checking' | 'unsupported' | 'iphone' | 'denied' | 'off' | 'on';

const isIos = () =>
  /iPhone|iPad|iPod/.test(navigator.userAgent) ||
  (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
const pushSupported = () =>
  'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The registration of the app's service worker, or none within a few seconds. */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
  ]);
}

async function currentState(): Promise<PushState> {
  if (!pushSupported()) return isIos() ? 'iphone' : 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const existing = await (
    await navigator.serviceWorker.getRegistration()
  )?.pushManager
    .getSubscription()
    .catch(() => null);
  return existing && Notification.permission === 'granted' ? 'on' : 'off';
}

/** The VAPID public key (base64url) as the bytes `pushManager.subscribe` takes. */
const keyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
};

/**
 * The offer of announcements on this phone (decision 240), on /home once the attendee joined:
 * never asked by itself; one tap asks the browser's permission and subscribes. On an iPhone
 * outside the Home Screen it says how to install the app first; a refused permission is said,
 * not asked again; once on, it can be turned off. "Not now" hides it on this device.
 */
export function PushOptIn() {
  const t = useT();
  const config = useAppConfig();
  const withToken = useWithAttendeeToken();
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState(false);
  const [dismissed, setDismissed] = useLocalStorage(storedText(STORAGE_KEYS.pushOptInDismissed));

  useEffect(() => {
    let live = true;
    void currentState().then((found) => {
      if (live) setState(found);
    });
    return () => {
      live = false;
    };
  }, []);

  const turnOn = async () => {
    const key = config.data?.vapidPublicKey;
    if (!key) return;
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off');
        return;
      }
      const worker = await registration();
      if (!worker) throw new Error('no service worker');
      const subscription = await worker.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(key),
      });
      await withToken((token) => saveSubscription(subscription.toJSON(), token));
      setState('on');
    } catch (error) {
      toastFailed(error, translate('announcements.pushFailed'));
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    try {
      const subscription = await (
        await navigator.serviceWorker.getRegistration()
      )?.pushManager.getSubscription();
      if (subscription) {
        await withToken((token) => deleteSubscription(subscription.endpoint, token));
        await subscription.unsubscribe();
      }
      setState('off');
    } catch (error) {
      toastFailed(error, translate('announcements.pushOffFailed'));
    } finally {
      setBusy(false);
    }
  };

  if (state === 'checking' || state === 'unsupported') return null;
  // Once put away (or turned on and done with), it floats over /home no more on this device.
  if (dismissed) return null;
  // Floating over the bottom of the screen: it comes once the browser has been asked what it
  // allows, and in the page's flow it would push the gallery down under the reader's eyes. Not
  // in the shared portal: a dialog opened after it would no longer be the top one there, and
  // Escape would not close it.
  return (
    <Affix position={{ bottom: 16, left: 16, right: 16 }} zIndex={150} withinPortal={false}>
      <Paper
        withBorder
        shadow="md"
        radius="md"
        p="md"
        maw={480}
        mx="auto"
        component="section"
        aria-labelledby="push-opt-in"
      >
        <Stack gap="xs">
          <Group gap="xs" wrap="nowrap">
            <IconBellRinging size={22} aria-hidden />
            <Title order={2} fz="md" id="push-opt-in">
              {t('announcements.pushTitle')}
            </Title>
          </Group>
          {state === 'on' ? (
            <Text fz="sm">{t('announcements.pushOn')}</Text>
          ) : state === 'denied' ? (
            <Text fz="sm">{t('announcements.pushDenied')}</Text>
          ) : (
            <Text fz="sm">{t('announcements.pushBody')}</Text>
          )}
          {(state === 'iphone' || (state === 'off' && isIos())) && (
            <Text fz="sm" c="dimmed">
              {t('announcements.pushIphone')}
            </Text>
          )}
          <Group gap="sm">
            {state === 'off' && (
              <Button onClick={() => void turnOn()} loading={busy} disabled={!config.data}>
                {t('announcements.pushButton')}
              </Button>
            )}
            {state === 'on' && (
              <Button variant="default" onClick={() => void turnOff()} loading={busy}>
                {t('announcements.pushOff')}
              </Button>
            )}
            <Button variant="subtle" onClick={() => setDismissed('1')}>
              {state === 'on' ? t('announcements.pushDone') : t('announcements.pushDismiss')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Affix>
  );
}

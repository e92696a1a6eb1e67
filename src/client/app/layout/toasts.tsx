import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_DEFAULT_AUTO_CLOSE } from '../../../shared/constants.ts';

/** Mantine's toasts, top-right; loaded beside the screens that show them (`WithToasts`). */
export default function Toasts() {
  return (
    <Notifications
      position="top-right"
      autoClose={TOAST_DEFAULT_AUTO_CLOSE}
      containerWidth={440}
      zIndex={1000}
    />
  );
}

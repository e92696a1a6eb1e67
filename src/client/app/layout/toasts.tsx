import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_DEFAULT_AUTO_CLOSE } from '../../../shared/constants.ts';
import { directionOf } from '../../../shared/i18n/languages.ts';
import { useMessages } from '../../i18n/language.ts';
import classes from './toasts.module.css';

/**
 * Mantine's toasts, top-right (top-left in a right-to-left language: the end of the line, where
 * the spec's top right is); loaded beside the screens that show them (`WithToasts`). While a
 * dialog is open they show at the bottom instead, clear of its close button (decision 165).
 */
export default function Toasts() {
  const { language } = useMessages();
  return (
    <Notifications
      position={directionOf(language) === 'rtl' ? 'top-left' : 'top-right'}
      autoClose={TOAST_DEFAULT_AUTO_CLOSE}
      containerWidth={440}
      zIndex={1000}
      className={classes.toasts}
    />
  );
}

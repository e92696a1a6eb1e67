import { notifications } from '@mantine/notifications';
import { createElement } from 'react';
import { TOAST_AUTO_CLOSE } from '../../shared/constants.ts';
import { errorMessage } from '../lib/api-client.ts';
import { UndoMessage } from './undo-message.tsx';

/** The one way a screen says something went well: a green toast that closes itself. */
export function toastDone(message: string, title?: string): void {
  notifications.show({ color: 'green', title, message, autoClose: TOAST_AUTO_CLOSE });
}

/**
 * The one way a screen says something failed: a red toast with the server's reason, or
 * `fallback` when there is none to show.
 */
export function toastFailed(error: unknown, fallback: string, title?: string): void {
  notifications.show({
    color: 'red',
    title,
    message: errorMessage(error, fallback),
    autoClose: TOAST_AUTO_CLOSE,
  });
}

/** The one way a screen says something waits to be sent: a blue toast that closes itself. */
export function toastQueued(message: string): void {
  notifications.show({ color: 'blue', message, autoClose: TOAST_AUTO_CLOSE });
}

let undoToasts = 0;

/**
 * The one way a screen offers to take back what was just done: a toast with an "Undo" button,
 * open twice as long as the others (and while the pointer is on it); Undo closes it and runs
 * `undo`.
 */
export function toastUndoable(message: string, undo: () => void): void {
  undoToasts += 1;
  const id = `undo-${String(undoToasts)}`;
  notifications.show({
    id,
    color: 'blue',
    autoClose: TOAST_AUTO_CLOSE * 2,
    message: createElement(UndoMessage, {
      message,
      onUndo: () => {
        notifications.hide(id);
        undo();
      },
    }),
  });
}

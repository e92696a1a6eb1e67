import { Button, Loader, Modal, type ModalProps, Stack } from '@mantine/core';
import type { ReactNode, SubmitEvent } from 'react';
import { ModalActions } from './modal-actions.tsx';

/** The row under a dialog's fields: the way out, then the submit button. */
export interface FormDialogActions {
  cancel: string;
  submit: string;
  /** The submit button's text while the form is sent. */
  submitting: string;
  icon: ReactNode;
  /** The submit button is off (for example, until the attendee has joined). */
  disabled?: boolean;
}

/**
 * A dialog that is one form: the modal (styled once, in the theme), the form, its column of
 * fields and, with `actions`, the cancel and submit buttons. While `busy` (a post under way) it
 * cannot be closed, by its buttons, Escape or a click outside, so a half-sent form is never thrown
 * away, and the submit button shows a spinner.
 */
export function FormDialog({
  onSubmit,
  onClose,
  busy = false,
  actions,
  children,
  ...modal
}: Omit<ModalProps, 'children' | 'onSubmit'> & {
  onSubmit: (event?: SubmitEvent<HTMLFormElement>) => void;
  busy?: boolean;
  actions?: FormDialogActions;
  children: ReactNode;
}) {
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <Modal {...modal} onClose={close} closeOnClickOutside={!busy} closeOnEscape={!busy}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {children}
          {actions && (
            <ModalActions>
              <Button variant="default" onClick={close} disabled={busy}>
                {actions.cancel}
              </Button>
              <Button
                type="submit"
                aria-busy={busy}
                disabled={actions.disabled}
                leftSection={busy ? <Loader size={18} color="currentColor" /> : actions.icon}
              >
                {busy ? actions.submitting : actions.submit}
              </Button>
            </ModalActions>
          )}
        </Stack>
      </form>
    </Modal>
  );
}

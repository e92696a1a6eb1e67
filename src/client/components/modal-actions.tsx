import type { ReactNode } from 'react';
import classes from './modal-actions.module.css';

/**
 * The row of a dialog's buttons, the main action last: side by side on a wide screen, stacked at
 * full width on a phone.
 */
export function ModalActions({
  children,
  justify = 'end',
}: {
  children: ReactNode;
  justify?: 'end' | 'center';
}) {
  return (
    <div className={classes.actions} data-justify={justify}>
      {children}
    </div>
  );
}

import { Button, type ButtonProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The small light button of a card's row of actions (publish, hide, pin, delete): one size,
 * one icon size, one look across the console and the speaker's dashboard.
 */
export function ActionButton({
  icon: IconComponent,
  children,
  onClick,
  variant = 'light',
  ...button
}: Omit<ButtonProps, 'leftSection' | 'size'> & {
  icon: Icon;
  children: ReactNode;
  onClick: () => void;
}) {
  return (
    <Button
      size="compact-sm"
      variant={variant}
      leftSection={<IconComponent size={14} />}
      onClick={onClick}
      {...button}
    >
      {children}
    </Button>
  );
}

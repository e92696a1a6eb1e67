import { Button, type ButtonProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The small light button of a card's row of actions (publish, hide, pin, delete): one size,
 * one icon size, one look across the console and the speaker's dashboard. Without `icon`, its
 * text alone (one whose text carries its own mark, as "Answered ✓").
 */
export function ActionButton({
  icon: IconComponent,
  children,
  onClick,
  variant = 'light',
  ...button
}: Omit<ButtonProps, 'leftSection' | 'size'> & {
  icon: Icon | undefined;
  children: ReactNode;
  onClick: () => void;
}) {
  return (
    <Button
      size="compact-sm"
      variant={variant}
      leftSection={IconComponent ? <IconComponent size={14} /> : undefined}
      onClick={onClick}
      {...button}
    >
      {children}
    </Button>
  );
}

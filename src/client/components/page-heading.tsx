import { Title, VisuallyHidden } from '@mantine/core';

/**
 * The screen's level-one heading for screen readers, on screens whose visible layout already
 * says where one is (the Q&A room's two panels, the admin's tabs).
 */
export function HiddenPageHeading({ children }: { children: string }) {
  return (
    <Title order={1} className={VisuallyHidden.classes.root}>
      {children}
    </Title>
  );
}

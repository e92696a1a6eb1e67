import { Button, Group, Text } from '@mantine/core';
import { useT } from '../i18n/language.ts';

/** A toast's text beside its "Undo" button (`toastUndoable`). */
export function UndoMessage({ message, onUndo }: { message: string; onUndo: () => void }) {
  const t = useT();
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text size="sm">{message}</Text>
      <Button size="compact-sm" variant="light" onClick={onUndo}>
        {t('app.undo')}
      </Button>
    </Group>
  );
}

import { Button, Group, Text } from '@mantine/core';

/** A toast's text beside its "Undo" button (`toastUndoable`). */
export function UndoMessage({ message, onUndo }: { message: string; onUndo: () => void }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text size="sm">{message}</Text>
      <Button size="compact-sm" variant="light" onClick={onUndo}>
        Undo
      </Button>
    </Group>
  );
}

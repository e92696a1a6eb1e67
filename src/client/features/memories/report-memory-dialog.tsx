import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import {
  REPORT_CATEGORIES,
  REPORT_REASON_MAX,
  type ReportCategory,
} from '../../../shared/schemas/report.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { useReportMemory } from './api/report-memory.ts';

const CATEGORIES = Object.entries(REPORT_CATEGORIES) as [ReportCategory, string][];
const isCategory = (value: string): value is ReportCategory => value in REPORT_CATEGORIES;

/** The report's form, made afresh for each memory reported. */
function ReportForm({ memory, onClose }: { memory: Memory; onClose: () => void }) {
  const report = useReportMemory();
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [details, setDetails] = useState('');

  const send = () => {
    if (!category) return;
    const reason = details.trim() || REPORT_CATEGORIES[category];
    report.mutate(
      { id: memory._id, report: { category, reason } },
      {
        onSuccess: () => {
          toastDone('Thanks, the organisers will look at it');
          onClose();
        },
        onError: (error) => toastFailed(error, 'Please try again.', 'Could not send the report'),
      },
    );
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Ask the organisers to take it down. They see your reason, not your name.
        </Text>
        <Radio.Group
          label="Why?"
          required
          value={category}
          onChange={(value) => setCategory(isCategory(value) ? value : null)}
        >
          <Stack gap="xs" mt="xs">
            {CATEGORIES.map(([value, label]) => (
              <Radio key={value} value={value} label={label} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label="Anything to add (optional)"
          autosize
          minRows={2}
          maxRows={6}
          maxLength={REPORT_REASON_MAX}
          value={details}
          onChange={(event) => setDetails(event.currentTarget.value)}
          dir="auto"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color="red" disabled={!category} loading={report.isPending}>
            Send report
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Asks the organisers to take a memory down (decision 216): why, as one of a few choices, and
 * anything to add. The memory stays where it is until the organisers decide, or until enough
 * people have reported it.
 */
export function ReportMemoryDialog({
  memory,
  onClose,
}: {
  memory: Memory | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={memory !== null}
      onClose={onClose}
      title="Report this memory"
      size={480}
      fullScreen={phone}
      padding={phone ? 'sm' : 'md'}
    >
      {memory && <ReportForm key={memory._id} memory={memory} onClose={onClose} />}
    </Modal>
  );
}

import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { Memory } from '../../../shared/schemas/memory.ts';
import type { MessageId } from '../../../shared/i18n/messages.ts';
import {
  REPORT_CATEGORIES,
  REPORT_REASON_MAX,
  type ReportCategory,
} from '../../../shared/schemas/report.ts';
import { toastDone, toastFailed } from '../../components/toast.ts';
import { translate, useT } from '../../i18n/language.ts';
import { useReportMemory } from './api/report-memory.ts';

/**
 * Each choice's words in the shown language. The report carries the English ones
 * (`REPORT_CATEGORIES`) when nothing is typed: the organisers' console reads English.
 */
const CATEGORY_LABELS = {
  notConsented: 'memories.reportNotConsented',
  inappropriate: 'memories.reportInappropriate',
  other: 'memories.reportOther',
} as const satisfies Record<ReportCategory, MessageId>;
const CATEGORIES = Object.keys(CATEGORY_LABELS) as ReportCategory[];
const isCategory = (value: string): value is ReportCategory => value in REPORT_CATEGORIES;

/** The report's form, made afresh for each memory reported. */
function ReportForm({ memory, onClose }: { memory: Memory; onClose: () => void }) {
  const t = useT();
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
          toastDone(translate('memories.reportSent'));
          onClose();
        },
        onError: (error) =>
          toastFailed(error, translate('memories.reportRetry'), translate('memories.reportFailed')),
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
          {t('memories.reportIntro')}
        </Text>
        <Radio.Group
          label={t('memories.reportWhy')}
          required
          value={category}
          onChange={(value) => setCategory(isCategory(value) ? value : null)}
        >
          <Stack gap="xs" mt="xs">
            {CATEGORIES.map((value) => (
              <Radio key={value} value={value} label={t(CATEGORY_LABELS[value])} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={t('memories.reportDetails')}
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
            {t('dialog.cancel')}
          </Button>
          <Button type="submit" color="red" disabled={!category} loading={report.isPending}>
            {t('memories.reportSend')}
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
  const t = useT();
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={memory !== null}
      onClose={onClose}
      title={t('memories.reportTitle')}
      size={480}
      fullScreen={phone}
      padding={phone ? 'sm' : 'md'}
    >
      {memory && <ReportForm key={memory._id} memory={memory} onClose={onClose} />}
    </Modal>
  );
}

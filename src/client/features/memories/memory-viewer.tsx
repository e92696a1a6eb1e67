import { ActionIcon, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconChevronLeft,
  IconChevronRight,
  IconExternalLink,
  IconFlag,
  IconTrash,
} from '@tabler/icons-react';
import { type TouchEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { directionOf } from '../../../shared/i18n/languages.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useMessages, useT } from '../../i18n/language.ts';
import { DownloadButton, MemoryMediaView } from './memory-media-view.tsx';
import { ReportMemoryDialog } from './report-memory-dialog.tsx';
import type { ViewerPlace } from './viewer-place.ts';
import classes from './memories.module.css';

/** How far a finger moves sideways, in pixels, for a swipe to step. */
const SWIPE_PX = 50;

/**
 * Keys that step, unless a field, a video's controls or a button's own keys have them: the arrow
 * that points the way the text reads goes on, so → is next left to right and ← right to left.
 */
function stepOf(event: KeyboardEvent, rtl: boolean): -1 | 1 | 0 {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return 0;
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, textarea, select, video, [contenteditable="true"]')) return 0;
  if (event.key === 'ArrowLeft') return rtl ? 1 : -1;
  if (event.key === 'ArrowRight') return rtl ? -1 : 1;
  return 0;
}

/**
 * The arrow over the memory's starting (previous) or ending (next) edge: left and right, the
 * other way round in a right-to-left language, where the chevrons turn round too.
 */
function StepArrow({
  step,
  disabled,
  onStep,
}: {
  step: -1 | 1;
  disabled: boolean;
  onStep: (step: -1 | 1) => void;
}) {
  const t = useT();
  const previous = step === -1;
  const Chevron = previous ? IconChevronLeft : IconChevronRight;
  return (
    <ActionIcon
      className={`${classes.viewerArrow} ${previous ? classes.viewerPrev : classes.viewerNext}`}
      size={44}
      radius="xl"
      variant="filled"
      aria-label={previous ? t('memories.previous') : t('memories.next')}
      disabled={disabled}
      onClick={() => onStep(step)}
    >
      <Chevron size={26} className="confab-flip-rtl" />
    </ActionIcon>
  );
}

/**
 * The viewer (the spec's "Download Memory" modal, grown): one memory large, with arrows, the
 * keyboard (← →) and a swipe stepping through its post's memories and then on through the
 * gallery; the author, the time and the whole caption (scrolled when long); Download, its own
 * page (`/memory?id=`, the link to share), Delete for the attendee's own and Report for anyone
 * else's (decision 216). On a phone it takes the whole screen.
 */
export function MemoryViewer({
  place,
  onStep,
  onClose,
  onDelete,
}: {
  place: ViewerPlace | null;
  onStep: (step: -1 | 1) => void;
  onClose: () => void;
  /** Given when the shown memory is the attendee's own. */
  onDelete?: ((memory: Memory) => void) | undefined;
}) {
  const { t, language } = useMessages();
  const rtl = directionOf(language) === 'rtl';
  const phone = useMediaQuery('(max-width: 36em)');
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const opened = place !== null;
  const [reporting, setReporting] = useState<Memory | null>(null);

  useEffect(() => {
    if (!opened) return;
    const onKey = (event: KeyboardEvent) => {
      const step = stepOf(event, rtl);
      if (step === 0) return;
      event.preventDefault();
      onStep(step);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [opened, onStep, rtl]);

  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    touchStart.current =
      event.touches.length === 1 && touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return;
    // A swipe against the way the text reads brings the next one in.
    onStep(dx < 0 !== rtl ? 1 : -1);
  };

  const memory = place?.memory;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('memories.viewerTitle')}
      size={720}
      fullScreen={phone}
      padding={phone ? 'sm' : 'md'}
    >
      {place && memory && (
        <Stack gap="sm">
          <div
            className={`${classes.modalMedia} ${classes.viewerStage}`}
            onTouchStart={onTouchStart}
            onTouchEnd={onTouchEnd}
          >
            <MemoryMediaView key={memory._id} memory={memory} size="full" />
            <StepArrow step={-1} disabled={!place.hasPrevious} onStep={onStep} />
            <StepArrow step={1} disabled={!place.hasNext} onStep={onStep} />
          </div>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Stack gap={0} miw={0}>
              <Text fw={700} className={classes.author} dir="auto">
                {memory.username}
              </Text>
              <TimeAgo iso={memory.createdAt} long size="sm" c="dimmed" />
            </Stack>
            {place.inPost.count > 1 && (
              <Text size="sm" c="dimmed" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
                {t('memories.inPost', { index: place.inPost.index, count: place.inPost.count })}
              </Text>
            )}
          </Group>
          {memory.text && (
            <ScrollArea.Autosize
              mah={phone ? '22vh' : 220}
              type="auto"
              offsetScrollbars
              // The scrolling part takes the keyboard (arrows scroll a long caption) and is named.
              viewportProps={{
                tabIndex: 0,
                role: 'region',
                'aria-label': t('memories.captionRegion'),
              }}
            >
              <Text className={classes.viewerCaption} dir="auto">
                {memory.text}
              </Text>
            </ScrollArea.Autosize>
          )}
          <Group justify="flex-end" gap="sm">
            {onDelete && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={18} />}
                onClick={() => onDelete(memory)}
                me="auto"
              >
                {t('memories.delete')}
              </Button>
            )}
            {!onDelete && (
              <Button
                variant="subtle"
                color="gray"
                leftSection={<IconFlag size={18} />}
                onClick={() => setReporting(memory)}
                me="auto"
              >
                {t('memories.report')}
              </Button>
            )}
            <Button
              variant="default"
              component={Link}
              to={`${CLIENT_PATHS.memory}?id=${encodeURIComponent(memory._id)}`}
              leftSection={<IconExternalLink size={18} />}
            >
              {t('memories.openPage')}
            </Button>
            <DownloadButton memory={memory} />
          </Group>
        </Stack>
      )}
      <ReportMemoryDialog memory={reporting} onClose={() => setReporting(null)} />
    </Modal>
  );
}

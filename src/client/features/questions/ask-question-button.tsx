import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMessageQuestion } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { lazyModal } from '../../components/lazy-modal.tsx';
import { useT } from '../../i18n/language.ts';
import { whenIdle } from '../../lib/when-idle.ts';
import { prefetchSpeakers } from '../speakers/api/get-speakers.ts';

const AskQuestionModal = lazyModal(
  async () => (await import('./ask-question-modal.tsx')).AskQuestionModal,
  (props) => props.opened,
);
const ThankYouModal = lazyModal(
  async () => (await import('./thank-you-modal.tsx')).ThankYouModal,
  (props) => props.opened,
);

export interface AskQuestionButtonProps extends ButtonProps {
  /** Chooses this speaker in the dialog. */
  speakerId?: string | undefined;
  /** Chooses this session (a talk, a panel) in the dialog. */
  sessionId?: string | undefined;
  /** The button's text; "ASK A QUESTION" in the language shown by default. */
  label?: string;
  /** Opens the dialog at once (the QR code's link: `/?ask=<speaker>`). */
  defaultOpened?: boolean;
}

/**
 * "ASK A QUESTION": opens the ask dialog, then "Thank you!" once the question is stored. The
 * speakers are loaded ahead of the dialog, so it can offer them offline.
 */
export function AskQuestionButton({
  speakerId,
  sessionId,
  label,
  defaultOpened = false,
  ...buttonProps
}: AskQuestionButtonProps) {
  const t = useT();
  const [asking, ask] = useDisclosure(defaultOpened);
  const [thanking, thank] = useDisclosure(false);
  const client = useQueryClient();
  // The speakers, once the screen is drawn: the dialog offers them even if the network goes.
  useEffect(() => {
    let live = true;
    void whenIdle().then(() => {
      if (live && navigator.onLine) prefetchSpeakers(client);
    });
    return () => {
      live = false;
    };
  }, [client]);
  return (
    <>
      <Button leftSection={<IconMessageQuestion size={20} />} onClick={ask.open} {...buttonProps}>
        {label ?? t('qa.askButton')}
      </Button>
      <AskQuestionModal
        opened={asking}
        onClose={ask.close}
        onAsked={thank.open}
        speakerId={speakerId}
        sessionId={sessionId}
      />
      <ThankYouModal opened={thanking} onClose={thank.close} />
    </>
  );
}

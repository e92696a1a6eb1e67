import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMessageQuestion } from '@tabler/icons-react';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { lazyModal } from '../../components/lazy-modal.tsx';

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
  label?: string;
  /** Opens the dialog at once (the QR code's link: `/?ask=<speaker>`). */
  defaultOpened?: boolean;
}

/** "ASK A QUESTION": opens the ask dialog, then "Thank you!" once the question is stored. */
export function AskQuestionButton({
  speakerId,
  label = QA_TEXTS.askButton,
  defaultOpened = false,
  ...buttonProps
}: AskQuestionButtonProps) {
  const [asking, ask] = useDisclosure(defaultOpened);
  const [thanking, thank] = useDisclosure(false);
  return (
    <>
      <Button leftSection={<IconMessageQuestion size={20} />} onClick={ask.open} {...buttonProps}>
        {label}
      </Button>
      <AskQuestionModal
        opened={asking}
        onClose={ask.close}
        onAsked={thank.open}
        speakerId={speakerId}
      />
      <ThankYouModal opened={thanking} onClose={thank.close} />
    </>
  );
}

import { Center, EmptyState } from '@mantine/core';
import { IconMoodSad } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { useMessages } from '../../i18n/language.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { PresenterView, ProjectorLoading } from './presenter-view.tsx';
import { useSpeakerQuestions } from './use-question-lists.ts';

/** Where the QR code leads: the join page, which opens the ask form for this speaker. */
const askUrl = (username: string) =>
  `${window.location.origin}${CLIENT_PATHS.join}?ask=${encodeURIComponent(username)}`;

/**
 * /speakers/:username/present: the speaker's projector view. The pinned question large, the
 * top questions below it, and a QR code to ask; live over the socket, polled as the fallback.
 * It holds one bounded list (the latest questions), so it runs for hours without growing.
 */
export default function PresenterScreen({
  live,
}: {
  /** Beside the QR code, what else the speaker's room follows live (their talk's poll). */
  live?: (speakerId: string) => ReactNode;
}) {
  const { t, rich } = useMessages();
  const { username = '' } = useParams();
  const speakers = useSpeakersCard();
  const speaker = speakers.data?.find((item) => item.username === username.toLowerCase());
  const questions = useSpeakerQuestions(speaker?._id);

  if (speakers.isPending || (speaker && questions.pending)) return <ProjectorLoading />;
  if (!speaker) {
    return (
      <Center mih="100dvh">
        <EmptyState icon={<IconMoodSad size={28} />} withIndicatorBackground>
          <EmptyState.Title order={1}>{t('qa.speakerNotFound')}</EmptyState.Title>
        </EmptyState>
      </Center>
    );
  }
  return (
    <PresenterView
      label={t('qa.presenterViewOf', { name: speaker.name })}
      title={rich('qa.presenterTitle', { name: <bdi>{speaker.name}</bdi> })}
      questions={questions.questions}
      askLink={askUrl(speaker.username)}
      aside={live?.(speaker._id)}
    />
  );
}

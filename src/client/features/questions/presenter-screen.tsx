import {
  ActionIcon,
  Center,
  EmptyState,
  Group,
  Loader,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconMaximize, IconMoodSad, IconMoon, IconSun } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { useSpeakersCard } from '../speakers/api/get-speakers.ts';
import { useQuestions } from './api/get-questions.ts';
import { arrangeQuestions } from './question-order.ts';
import projectorText from '../../components/projector-text.module.css';
import { QrCode } from '../../components/qr-code.tsx';
import { useLiveQuestions } from './use-live-questions.ts';
import classes from './presenter.module.css';

/** Questions below the pinned one: what fits on a projector in large type. */
const TOP_SHOWN = 5;

/** Where the QR code leads: the join page, which opens the ask form for this speaker. */
const askUrl = (username: string) =>
  `${window.location.origin}${CLIENT_PATHS.join}?ask=${encodeURIComponent(username)}`;

function ScreenControls() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Group gap="xs">
      <ActionIcon
        variant="default"
        size="xl"
        radius="xl"
        aria-label={`Switch to ${next} mode`}
        onClick={() => setColorScheme(next)}
      >
        {computed === 'dark' ? <IconSun /> : <IconMoon />}
      </ActionIcon>
      <ActionIcon
        variant="default"
        size="xl"
        radius="xl"
        aria-label="Full screen"
        onClick={() => void document.documentElement.requestFullscreen().catch(() => undefined)}
      >
        <IconMaximize />
      </ActionIcon>
    </Group>
  );
}

/**
 * /speakers/:username/present: the speaker's projector view. The pinned question large, the
 * top questions below it, and a QR code to ask; live over the socket, polled as the fallback.
 * It holds one bounded list (the latest questions), so it runs for hours without growing.
 */
export default function PresenterScreen() {
  const { username = '' } = useParams();
  const speakers = useSpeakersCard();
  const speaker = speakers.data?.find((item) => item.username === username.toLowerCase());
  useLiveQuestions(speaker ? { room: 'speaker', speakerId: speaker._id } : null);
  const questions = useQuestions(speaker ? { kind: 'speaker', speakerId: speaker._id } : null);

  if (speakers.isPending || (speaker && questions.isPending)) {
    return (
      <Center mih="100dvh">
        <Loader size="xl" aria-label="Loading" />
      </Center>
    );
  }
  if (!speaker) {
    return (
      <Center mih="100dvh">
        <EmptyState icon={<IconMoodSad size={28} />} withIndicatorBackground>
          <EmptyState.Title order={1}>{QA_TEXTS.speakerNotFound}</EmptyState.Title>
        </EmptyState>
      </Center>
    );
  }

  const { pinned, open } = arrangeQuestions(questions.data ?? [], 'top');
  const top = open.slice(0, TOP_SHOWN);
  const link = askUrl(speaker.username);

  return (
    <main className={classes.page} aria-label={`${QA_TEXTS.presenterView}: ${speaker.name}`}>
      <header className={classes.header}>
        <h1 className={classes.speaker}>Q&amp;A with {speaker.name}</h1>
        <ScreenControls />
      </header>
      <div className={classes.body}>
        <section
          aria-label="Questions"
          style={{ display: 'flex', flexDirection: 'column', gap: '3vh', minHeight: 0 }}
        >
          {pinned && (
            <article className={classes.pinned} aria-label="Pinned question">
              <div className={classes.label}>{QA_TEXTS.pinned}</div>
              <p className={classes.pinnedText}>{pinned.question}</p>
              <div className={classes.asker}>
                @{pinned.askerUsername} · {pinned.votes} vote{pinned.votes === 1 ? '' : 's'}
              </div>
            </article>
          )}
          {top.length > 0 ? (
            <div>
              <div className={classes.label}>Top questions</div>
              <ol className={classes.list} aria-label="Top questions">
                {top.map((question) => (
                  <li key={question._id} className={classes.item}>
                    <div className={classes.votes} aria-label={`${question.votes} votes`}>
                      {question.votes}
                      <span className={classes.votesLabel} aria-hidden>
                        votes
                      </span>
                    </div>
                    <div>
                      <div className={`${projectorText.clamped} ${classes.itemText}`}>
                        {question.question}
                      </div>
                      <div className={classes.asker}>@{question.askerUsername}</div>
                    </div>
                  </li>
                ))}
              </ol>
            </div>
          ) : (
            !pinned && <p className={classes.pinnedText}>{QA_TEXTS.noQuestionsYet}</p>
          )}
        </section>
        <aside className={classes.qr}>
          <div className={classes.qrFrame}>
            <QrCode value={link} size={480} label={`QR code: ${link}`} />
          </div>
          <div className={classes.scan}>{QA_TEXTS.scanToAsk}</div>
          <div className={classes.url}>{link.replace(/^https?:\/\//, '')}</div>
        </aside>
      </div>
    </main>
  );
}

import {
  ActionIcon,
  Center,
  Group,
  Loader,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconMaximize, IconMoon, IconSun } from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import type { Question } from '../../../shared/schemas/question.ts';
import projectorText from '../../components/projector-text.module.css';
import { WrittenAnswer, askerHandle } from '../../components/question-parts.tsx';
import { QrCode } from '../../components/qr-code.tsx';
import { useMessages, useT } from '../../i18n/language.ts';
import { arrangeQuestions } from './question-order.ts';
import overlay from './overlay.module.css';
import classes from './presenter.module.css';

/** Questions below the pinned one: what fits on a projector in large type. */
const TOP_SHOWN = 5;

/** Light or dark, and full screen: what the person at the projector reaches for. */
export function ScreenControls() {
  const t = useT();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Group gap="xs" className={classes.controls}>
      <ActionIcon
        variant="default"
        size="xl"
        radius="xl"
        aria-label={next === 'dark' ? t('qa.switchToDark') : t('qa.switchToLight')}
        onClick={() => setColorScheme(next)}
      >
        {computed === 'dark' ? <IconSun /> : <IconMoon />}
      </ActionIcon>
      <ActionIcon
        variant="default"
        size="xl"
        radius="xl"
        aria-label={t('qa.fullScreen')}
        onClick={() => void document.documentElement.requestFullscreen().catch(() => undefined)}
      >
        <IconMaximize />
      </ActionIcon>
    </Group>
  );
}

/** A projector screen waiting for its data. */
export function ProjectorLoading() {
  const t = useT();
  return (
    <Center mih="100dvh">
      <Loader size="xl" aria-label={t('qa.loadingLabel')} />
    </Center>
  );
}

/** The QR code to `link`, what it is for, and the address to type for those who cannot scan. */
export function AskCode({
  link,
  caption,
}: {
  link: string;
  /** What the code is for; "Scan to ask a question" in the language shown by default. */
  caption?: string;
}) {
  const t = useT();
  return (
    <div className={classes.qr}>
      <div className={classes.qrFrame}>
        <QrCode value={link} size={480} label={t('qa.qrCode', { link })} />
      </div>
      <div className={classes.scan}>{caption ?? t('qa.scanToAsk')}</div>
      <div className={classes.url} dir="ltr">
        {link.replace(/^https?:\/\//, '')}
      </div>
    </div>
  );
}

/** The pinned question large, the top ones below it by votes; or that there are none yet. */
function PresenterQuestions({ questions }: { questions: readonly Question[] }) {
  const { t, rich } = useMessages();
  const { pinned, open } = arrangeQuestions(questions, 'top');
  const top = open.slice(0, TOP_SHOWN);
  return (
    <section aria-label={t('qa.questions')} className={classes.questions}>
      {pinned && (
        <article className={classes.pinned} aria-label={t('qa.pinnedQuestion')}>
          <div className={classes.label}>{t('qa.pinned')}</div>
          <p className={classes.pinnedText} dir="auto">
            {pinned.question}
          </p>
          <WrittenAnswer question={pinned} className={classes.answer} />
          <div className={classes.asker}>
            {rich('qa.askerVotes', {
              asker: <bdi>{askerHandle(pinned)}</bdi>,
              count: pinned.votes,
            })}
          </div>
        </article>
      )}
      {top.length > 0 ? (
        <div className={classes.topBlock}>
          <div className={classes.label}>{t('qa.topQuestions')}</div>
          <ol className={classes.list} aria-label={t('qa.topQuestions')}>
            {top.map((question) => (
              <li key={question._id} className={classes.item}>
                <div
                  className={classes.votes}
                  aria-label={t('qa.votesCount', { count: question.votes })}
                >
                  {question.votes}
                  <span className={classes.votesLabel} aria-hidden>
                    {t('qa.votesUnit', { count: question.votes })}
                  </span>
                </div>
                <div>
                  <div className={`${projectorText.clamped} ${classes.itemText}`} dir="auto">
                    {question.question}
                  </div>
                  <div className={classes.asker}>
                    <bdi>{askerHandle(question)}</bdi>
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </div>
      ) : (
        !pinned && <p className={classes.pinnedText}>{t('qa.noQuestionsYet')}</p>
      )}
    </section>
  );
}

export interface ProjectorPageProps {
  /** The screen's name for assistive technology. */
  label: string;
  /** The heading: the speaker, the session's title, or the room. */
  title: ReactNode;
  /** A line above the heading (the room, the time). */
  eyebrow?: ReactNode;
  /** A line below the heading (the speakers). */
  details?: ReactNode;
  /** Where the QR code leads: the page that asks these questions; none, no code. */
  askLink?: string | undefined;
  /** Beside the QR code: room for what else the room follows live (a poll's results). */
  aside?: ReactNode;
  children: ReactNode;
}

/**
 * A projector at the back of a hall (decision 226): a heading, what the screen shows, and beside
 * it a QR code to ask. Everything scales with the screen; a portrait screen or a phone puts the
 * QR code below.
 */
export function ProjectorPage({
  label,
  title,
  eyebrow,
  details,
  askLink,
  aside,
  children,
}: ProjectorPageProps) {
  return (
    <main className={classes.page} aria-label={label}>
      <header className={classes.header}>
        <div className={classes.heading}>
          {eyebrow && <div className={classes.eyebrow}>{eyebrow}</div>}
          <h1 className={classes.speaker} dir="auto">
            {title}
          </h1>
          {details && <div className={classes.details}>{details}</div>}
        </div>
        <ScreenControls />
      </header>
      <div className={classes.body}>
        {children}
        {(aside ?? askLink) && (
          <aside className={classes.side}>
            {aside}
            {askLink && <AskCode link={askLink} />}
          </aside>
        )}
      </div>
    </main>
  );
}

export type PresenterViewProps = Omit<ProjectorPageProps, 'children' | 'askLink'> & {
  questions: readonly Question[];
  askLink: string;
};

/** The pinned question large, the top questions below it, and a QR code to ask. */
export function PresenterView({ questions, ...page }: PresenterViewProps) {
  return (
    <ProjectorPage {...page}>
      <PresenterQuestions questions={questions} />
    </ProjectorPage>
  );
}

/**
 * Makes the page itself transparent while the calling screen is shown (`html` and `body`), so
 * streaming software shows its video through it; the app's background is back when it goes.
 */
export function useTransparentPage(): void {
  useEffect(() => {
    const root = document.documentElement;
    const name = overlay.transparent;
    if (!name) return undefined;
    root.classList.add(name);
    return () => root.classList.remove(name);
  }, []);
}

/**
 * The same for streaming software (an OBS browser source): a lower third over the video, on a
 * transparent page. The session and its speakers, the pinned question (else the top one) large,
 * how many more are waiting, and a small QR code to ask; `poll` (a poll's results) above it, at
 * the side, never over the question.
 */
export function OverlayView({
  label,
  title,
  details,
  questions,
  askLink,
  poll,
  lane,
}: Omit<PresenterViewProps, 'eyebrow' | 'aside'> & {
  poll?: ReactNode;
  /** Above the lower third (and its poll), over the video: the room's reactions. */
  lane?: ReactNode;
}) {
  const { t, rich } = useMessages();
  const { pinned, open } = arrangeQuestions(questions, 'top');
  const shown = pinned ?? open[0];
  const more = open.length - (pinned ? 0 : 1);
  return (
    <main className={overlay.page} aria-label={label}>
      {lane && <div className={overlay.lane}>{lane}</div>}
      {poll && <div className={overlay.poll}>{poll}</div>}
      <section className={overlay.third}>
        <div className={overlay.text}>
          <div className={overlay.session}>
            <h1 className={overlay.title} dir="auto">
              {title}
            </h1>
            {details && <div className={overlay.details}>{details}</div>}
          </div>
          {shown ? (
            <article
              className={overlay.question}
              aria-label={pinned ? t('qa.pinnedQuestion') : t('qa.topQuestion')}
            >
              <p className={`${projectorText.clamped} ${overlay.questionText}`} dir="auto">
                {shown.question}
              </p>
              <div className={overlay.asker}>
                {rich('qa.askerVotes', {
                  asker: <bdi>{askerHandle(shown)}</bdi>,
                  count: shown.votes,
                })}
                {more > 0 && ` · ${t('qa.moreQuestions', { count: more })}`}
              </div>
            </article>
          ) : (
            <p className={overlay.asker}>{t('qa.noQuestionsYet')}</p>
          )}
        </div>
        <div className={overlay.code}>
          <div className={overlay.codeFrame}>
            <QrCode value={askLink} size={200} label={t('qa.qrCode', { link: askLink })} />
          </div>
          <div className={overlay.scan}>{t('qa.scanToAsk')}</div>
        </div>
      </section>
    </main>
  );
}

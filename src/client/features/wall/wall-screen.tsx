import { useDocumentTitle } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconMaximize } from '@tabler/icons-react';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Memory } from '../../../shared/schemas/memory.ts';
import projectorText from '../../components/projector-text.module.css';
import { QrCode } from '../../components/qr-code.tsx';
import { useT } from '../../i18n/language.ts';
import { appConfigQueryOptions } from '../../lib/app-config.ts';
import { useEventName } from '../../lib/event-name.ts';
import { dropReadsInFlight } from '../../lib/cached-lists.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import {
  WALL_SIZE,
  mergeWallMemory,
  useWallMemories,
  wallQueryKey,
} from './api/get-wall-memories.ts';
import { emptyWall, nextChangeIn, wallReducer } from './wall-playlist.ts';
import classes from './wall.module.css';

/** How long the cross-fade lasts (none with reduced motion: the stylesheet says so). */
const FADE_MS = 800;
/** The public settings are read again this often: a new interval, name or colour applies. */
const CONFIG_REFRESH_MS = 60_000;
/** How long a slide may take to load before the wall moves on without it. */
const LOAD_TIMEOUT_MS = 10_000;

/** The playlist of a list of `WALL_SIZE` memories, on the page's clock. */
const reducer = wallReducer(WALL_SIZE, () => performance.now());

const isVideo = (memory: Memory) => memory.contentType.startsWith('video/');

/**
 * One memory filling the screen: the photo whole over a blurred copy of itself, or the video
 * muted and playing; its author and caption overlaid. It says when it can be seen (`onReady`)
 * and when it has left the page (`onGone`), so the cross-fade starts on a picture, not on an
 * empty frame. A video gives its media back when it leaves the screen, so hours of videos do
 * not pile up in memory.
 */
function Slide({
  memory,
  shown,
  onReady,
  onGone,
  onVideoLength,
}: {
  memory: Memory;
  shown: boolean;
  onReady: (id: string) => void;
  onGone: (id: string) => void;
  onVideoLength: (id: string, ms: number) => void;
}) {
  const t = useT();
  const videoRef = useRef<HTMLVideoElement>(null);
  const ready = () => onReady(memory._id);
  // A slide that does not load in time is shown as it is, so the wall never stalls on it.
  useEffect(() => {
    const timer = setTimeout(() => onReady(memory._id), LOAD_TIMEOUT_MS);
    return () => {
      clearTimeout(timer);
      onGone(memory._id);
    };
  }, [memory._id, onReady, onGone]);
  useEffect(() => {
    const video = videoRef.current;
    return () => {
      if (!video) return;
      video.pause();
      video.removeAttribute('src');
      video.load();
    };
  }, []);
  const backdrop = memory.thumbnail ?? (isVideo(memory) ? null : memory.media);
  return (
    <figure className={classes.slide} data-shown={shown} aria-hidden={!shown}>
      {backdrop && (
        <div className={classes.backdrop} style={{ backgroundImage: `url("${backdrop}")` }} />
      )}
      {isVideo(memory) ? (
        <video
          ref={videoRef}
          className={classes.media}
          src={memory.media}
          poster={memory.thumbnail ?? undefined}
          muted
          autoPlay
          loop
          playsInline
          preload="auto"
          aria-label={t('wall.videoBy', { username: memory.username })}
          onLoadedData={ready}
          onError={ready}
          onLoadedMetadata={(event) => {
            const seconds = event.currentTarget.duration;
            if (Number.isFinite(seconds)) onVideoLength(memory._id, seconds * 1000);
          }}
        />
      ) : (
        <img
          className={classes.media}
          src={memory.media}
          alt={
            memory.text
              ? t('wall.photoByCaption', { username: memory.username, caption: memory.text })
              : t('wall.photoBy', { username: memory.username })
          }
          decoding="async"
          onLoad={ready}
          onError={ready}
        />
      )}
      <figcaption className={classes.caption}>
        <span className={classes.username} dir="auto">
          @{memory.username}
        </span>
        {memory.text && (
          <span className={projectorText.clamped} dir="auto">
            {memory.text}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

/**
 * /wall: the photo wall for a projector. The newest memories fill the screen one after another
 * with a cross-fade, new ones jump the queue the moment they arrive (socket, with the poll as
 * the fallback), deleted ones leave the screen at once; a QR code leads to the join page. It
 * holds one bounded list and at most two slides, so it runs all day without growing, and it
 * comes back by itself after a server restart or a dropped network (decision 136).
 */
export default function WallScreen() {
  const t = useT();
  const eventName = useEventName();
  const config = useQuery({ ...appConfigQueryOptions(), refetchInterval: CONFIG_REFRESH_MS });
  const name = config.data?.eventName ?? eventName;
  useDocumentTitle(t('wall.documentTitle', { eventName: name }));
  const memories = useWallMemories();
  const list = memories.data;
  const [state, dispatch] = useReducer(reducer, undefined, emptyWall);
  // The slide fading out under the one on screen (until that one can be seen), and the slides
  // on the page that can be seen: each slide says so itself when it loads, and when it goes.
  const [leaving, setLeaving] = useState<Memory | null>(null);
  const [readyIds, setReadyIds] = useState<ReadonlySet<string>>(() => new Set());

  useLiveUpdates({
    on: {
      memoryCreated: ({ memory }, client) => {
        if (memory.status !== 'published') return;
        client.setQueryData<Memory[]>(wallQueryKey, (data) => mergeWallMemory(data, memory));
        dispatch({ type: 'arrive', memory });
      },
      memoryUpdated: ({ memory }, client) => {
        if (memory.status !== 'published') return;
        client.setQueryData<Memory[]>(wallQueryKey, (data) => mergeWallMemory(data, memory));
        // Approved: it arrives now. Already known: its latest copy is shown.
        dispatch({ type: 'update', memory });
        dispatch({ type: 'arrive', memory });
      },
      memoryDeleted: ({ id }, client) => {
        dropReadsInFlight(client, wallQueryKey);
        const rest = (client.getQueryData<Memory[]>(wallQueryKey) ?? []).filter(
          (memory) => memory._id !== id,
        );
        client.setQueryData<Memory[]>(wallQueryKey, (data) => data && rest);
        dispatch({ type: 'remove', id, list: rest });
        setLeaving((slide) => (slide?._id === id ? null : slide));
      },
    },
    refetchOnConnect: [wallQueryKey],
  });

  useEffect(() => {
    if (list) dispatch({ type: 'sync', list });
  }, [list]);

  const [videoLength, setVideoLength] = useState<{ id: string; ms: number } | null>(null);
  const shownRef = useRef<Memory | null>(null);
  const current = state.current;
  useEffect(() => {
    const previous = shownRef.current;
    shownRef.current = current;
    if (!previous || previous._id === current?._id) return;
    setLeaving(previous);
  }, [current]);
  // Set by the slides alone: a slide that loads before this screen's effects run, or that was
  // on the page already (it goes up again while fading out), is never taken for unloaded.
  const onReady = useCallback(
    (id: string) => setReadyIds((ids) => (ids.has(id) ? ids : new Set(ids).add(id))),
    [],
  );
  const onGone = useCallback(
    (id: string) =>
      setReadyIds((ids) => {
        if (!ids.has(id)) return ids;
        const rest = new Set(ids);
        rest.delete(id);
        return rest;
      }),
    [],
  );
  const onVideoLength = useCallback((id: string, ms: number) => setVideoLength({ id, ms }), []);
  const currentReady = current !== null && readyIds.has(current._id);
  // Once the new slide shows, the old one fades out, then leaves the page.
  useEffect(() => {
    if (!currentReady || !leaving) return undefined;
    const timer = setTimeout(() => setLeaving(null), FADE_MS + 100);
    return () => clearTimeout(timer);
  }, [currentReady, leaving]);
  const slides = [
    ...(leaving && leaving._id !== current?._id ? [{ memory: leaving, shown: !currentReady }] : []),
    ...(current ? [{ memory: current, shown: currentReady }] : []),
  ];

  // The next change: one timer, set again whenever what is shown or waiting changes.
  const intervalMs = (config.data?.wallIntervalSeconds ?? 8) * 1000;
  const videoMs = current && videoLength?.id === current._id ? videoLength.ms : null;
  useEffect(() => {
    if (!current) return undefined;
    const delay = nextChangeIn(state, performance.now(), intervalMs, videoMs);
    const { shownAt } = state;
    const timer = setTimeout(() => dispatch({ type: 'advance', list: list ?? [], shownAt }), delay);
    return () => clearTimeout(timer);
  }, [state, current, list, intervalMs, videoMs]);

  const joinUrl = `${config.data?.publicUrl ?? window.location.origin}${CLIENT_PATHS.join}`;
  const accent = config.data?.primaryColor;

  return (
    <main
      className={classes.page}
      aria-label={t('wall.pageLabel', { eventName: name })}
      style={accent ? ({ '--wall-accent': accent } as React.CSSProperties) : undefined}
    >
      {slides.map(({ memory, shown }) => (
        <Slide
          key={memory._id}
          memory={memory}
          shown={shown}
          onReady={onReady}
          onGone={onGone}
          onVideoLength={onVideoLength}
        />
      ))}
      {!current && list && (
        <div className={classes.empty}>
          <h1 className={classes.emptyTitle} dir="auto">
            {name}
          </h1>
          <p className={classes.emptyText}>{t('wall.empty')}</p>
        </div>
      )}
      <div className={classes.eventName} dir="auto">
        {name}
      </div>
      <div className={classes.join}>
        <div className={classes.qr}>
          <QrCode value={joinUrl} size={180} label={t('wall.qrLabel', { url: joinUrl })} />
        </div>
        <div className={classes.joinText}>
          <strong>{t('wall.scanToJoin')}</strong>
          <span dir="ltr">{joinUrl.replace(/^https?:\/\//, '').replace(/\/$/, '')}</span>
        </div>
      </div>
      <button
        type="button"
        className={classes.fullScreen}
        aria-label={t('wall.fullScreen')}
        onClick={() => void document.documentElement.requestFullscreen().catch(() => undefined)}
      >
        <IconMaximize size={28} aria-hidden />
      </button>
    </main>
  );
}

import fp from 'fastify-plugin';
import { registerClientApp } from '../http/pages/client-app.ts';
import { readListAnswer } from '../lists/list-route.ts';
import { galleryPageImages, memoryPageHead } from '../memories/memory-pages.ts';

/** The client's pages, with the event's branding, link previews and the lists they preload. */
export const clientAppPlugin = fp(
  async (app) => {
    const { config, deps } = app;
    await registerClientApp(app, config.clientDir, {
      answers: app.answers,
      clock: app.clock,
      branding: () => deps.settings.publicBranding(),
      pageHead: memoryPageHead(deps),
      pageImages: galleryPageImages(deps),
      pageRateLimit: config.pageRateLimit,
      listAnswer: (url) => readListAnswer(deps.lists, url),
    });
  },
  { name: 'client-app', dependencies: ['config', 'answer-memo', 'app-deps', 'http'] },
);

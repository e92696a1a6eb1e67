import type { WebSocket } from '@playwright/test';
import { expect, startServer, test } from './fixtures.ts';
import { askViaApi, createSpeaker, uniqueName } from './qa-helpers.ts';

test('after a graceful restart, an open page reconnects its socket within 20 s and joins its room again', async ({
  browser,
}) => {
  test.slow();
  const server = await startServer();
  const context = await browser.newContext({ baseURL: server.url });
  try {
    const page = await context.newPage();
    const speaker = await createSpeaker(context.request, uniqueName('Radia'));
    const sockets: { socket: WebSocket; watched: boolean; events: string[] }[] = [];
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/socket.io/')) return;
      const entry = { socket, watched: false, events: [] as string[] };
      sockets.push(entry);
      socket.on('framesent', ({ payload }) => {
        if (String(payload).includes('"watch"') && String(payload).includes(speaker._id)) {
          entry.watched = true;
        }
      });
      socket.on('framereceived', ({ payload }) => entry.events.push(String(payload)));
    });

    await page.goto(`/speakers/${speaker.username}/dashboard`);
    await expect(page.getByRole('heading', { name: `${speaker.name} Dashboard` })).toBeVisible();
    await expect.poll(() => sockets.some((entry) => entry.watched), { timeout: 15_000 }).toBe(true);
    const before = sockets.length;

    await server.restart(1_000);
    const back = Date.now();
    // A new socket, which watches the speaker's room again.
    await expect
      .poll(() => sockets.slice(before).some((entry) => entry.watched), { timeout: 20_000 })
      .toBe(true);
    expect(Date.now() - back).toBeLessThan(20_000);

    // And the room's events arrive on it.
    const question = `After the restart ${Date.now()}?`;
    await askViaApi(context.request, speaker, question, 'ada');
    await expect
      .poll(
        () =>
          sockets
            .slice(before)
            .some((entry) => entry.events.some((frame) => frame.includes(question))),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect(page.getByText(question)).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
  }
});

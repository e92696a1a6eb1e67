import { consoleProblems, expect, startServer, test } from './fixtures.ts';

/**
 * A network that joins faster than people do (decision 198): every join from it costs a proof
 * of work, which the page solves in Web Workers while the name is typed (from the first input:
 * decision 247).
 */
test.describe('joining from a busy network', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  test.beforeAll(async () => {
    server = await startServer({ JOIN_PROOF_FREE_PER_MINUTE: '0', JOIN_PROOF_MAX_WORK: '400000' });
  });
  test.afterAll(async () => {
    await server.stop();
  });

  test('the phone solves the proof in a worker, joins, and has a token, with no console problem', async ({
    page,
  }) => {
    const problems = consoleProblems(page);
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    const challenges: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/attendees/challenge')) challenges.push(response.status());
    });

    await page.goto(server.url);
    // Nothing is solved for a page only looked at; the work starts as the name is typed.
    await page.waitForLoadState('networkidle');
    expect(workers).toEqual([]);
    await page.getByLabel('Username').click();
    await expect.poll(() => workers.length).toBeGreaterThan(0);
    await page.getByLabel('Username').fill('Ada');
    await page.getByRole('button', { name: 'Join Now' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect
      .poll(() => page.evaluate(() => window.localStorage.getItem('attendeeToken')))
      .toMatch(/\S+/);
    expect(challenges).toEqual([200]);
    expect(problems).toEqual([]);
  });

  test('a phone that joined before keeps its token: no new proof on the next visit', async ({
    page,
  }) => {
    await page.goto(server.url);
    await page.getByLabel('Username').fill('Grace');
    await page.getByRole('button', { name: 'Join Now' }).click();
    await expect(page).toHaveURL(/\/home$/);
    const challenges: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/attendees')) challenges.push(request.url());
    });
    await page.goto(`${server.url}/home`);
    await expect(page.getByRole('heading', { name: /Join the Fun/ })).toBeVisible();
    expect(challenges).toEqual([]);
  });
});

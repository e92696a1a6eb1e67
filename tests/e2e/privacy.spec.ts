import fs from 'node:fs/promises';
import { expect, join, test } from './fixtures.ts';
import { chooseFiles, png } from './memory-helpers.ts';
import { createSpeaker, uniqueName } from './qa-helpers.ts';

/** Where to save screenshots of the menu, the confirmation and the join page after, if anywhere. */
const SHOTS = process.env.PRIVACY_SHOTS;
const [width = 1280, height = 720] = (process.env.PRIVACY_VIEWPORT ?? '').split('x').map(Number);
const shot = (name: string) => `${SHOTS ?? ''}/${name}-${width}x${height}.png`;

test.describe('an attendee’s own data', () => {
  test('downloads their data, then deletes it: gone from the gallery, back on the join page', async ({
    page,
    request,
    browser,
    server,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Radia'));
    const username = `hedy ${Date.now()}`;
    const caption = `Frequency hopping ${Date.now()}`;
    if (SHOTS) await page.setViewportSize({ width, height });
    await join(page, username);

    // A memory…
    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByLabel('Add a Caption').fill(caption);
    await chooseFiles(page, form, [
      { name: 'radio.png', mimeType: 'image/png', buffer: await png('#7048e8') },
    ]);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    const shared = page.getByRole('dialog', { name: 'Memory Shared' });
    await shared.getByRole('button', { name: 'Done' }).click();
    const tile = page.getByRole('article').filter({ hasText: caption });
    await expect(tile).toHaveCount(1);

    // …and a question.
    await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
    const ask = page.getByRole('dialog', { name: 'Ask a Question' });
    await ask.getByPlaceholder('Type your question here…').fill('Who patented it?');
    await ask.getByLabel('Speaker').selectOption({ label: speaker.name });
    await ask.getByRole('button', { name: 'Submit Question' }).click();
    await page.getByRole('dialog', { name: 'Thank you!' }).getByRole('button').first().click();

    // The name in the header opens what they can do with their data.
    const name = page.getByRole('button', { name: `Signed in as ${username}` });
    await name.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Delete my data' })).toBeVisible();
    if (SHOTS) {
      // Once the menu's opening transition is over.
      await page.waitForTimeout(400);
      await page.screenshot({ path: shot('menu') });
    }
    const download = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'Download my data' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await fs.readFile(await saved.path(), 'utf8')) as {
      attendee: { username: string };
      memories: { text: string; media: string }[];
      questions: { question: string; speakerName: string }[];
    };
    expect(data.attendee.username).toBe(username);
    expect(data.memories.map((m) => m.text)).toEqual([caption]);
    expect(data.memories[0]?.media).toMatch(/\/media\/memories\//);
    expect(data.questions).toEqual([
      expect.objectContaining({ question: 'Who patented it?', speakerName: speaker.name }),
    ]);

    // Deleting asks first, saying what goes and that it cannot be undone.
    await name.click();
    await page.getByRole('menuitem', { name: 'Delete my data' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete all your data?' });
    await expect(confirm).toContainText('cannot be undone');
    if (SHOTS) await page.screenshot({ path: shot('confirm') });
    await confirm.getByRole('button', { name: 'Delete everything' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Removed 1 memory, 1 question, 0 votes and')).toBeVisible();
    if (SHOTS) await page.screenshot({ path: shot('erased') });
    await expect(page.getByLabel('Username')).toHaveValue('');
    expect(await page.evaluate(() => localStorage.getItem('attendeeToken'))).toBeNull();

    // The memory is gone from the gallery, as another attendee sees it.
    const other = await browser.newContext({ baseURL: server.url });
    try {
      const gallery = await other.newPage();
      await join(gallery, 'someone else');
      await gallery.goto('/memories');
      await expect(gallery.getByRole('heading', { name: 'Memories' })).toBeVisible();
      await expect(gallery.getByRole('article').filter({ hasText: caption })).toHaveCount(0);
    } finally {
      await other.close();
    }
  });
});

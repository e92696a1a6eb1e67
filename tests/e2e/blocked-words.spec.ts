import type { Page } from '@playwright/test';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { createSpeaker, expectNoHorizontalScroll, uniqueName } from './qa-helpers.ts';

/** The spec changes the event's blocked words: it runs against a server of its own. */
const test = base.extend<object, { wordsServer: RunningServer }>({
  wordsServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ wordsServer }, use) => {
    await use(wordsServer.url);
  },
});

/** Sets the list and the action in the console's Settings tab, and saves them. */
async function saveBlockedWords(page: Page, words: string, action: string) {
  const list = page.getByRole('textbox', { name: 'Words and phrases, one per line' });
  await list.fill(words);
  await page.getByRole('radio', { name: action }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.').first()).toBeVisible();
}

test('the organiser blocks a word: a question with it is refused, then shown starred', async ({
  browser,
  page,
  request,
}, testInfo) => {
  const shot = (name: string) => ({ path: testInfo.outputPath(`${name}.png`) });
  const speaker = await createSpeaker(request, uniqueName('Ada'));

  // The console shows the shipped list, and takes a word of the organiser's with "Refuse".
  await page.setViewportSize({ width: 1920, height: 1080 });
  await logInAsAdmin(page, ADMIN_PASSWORD, 'settings');
  const list = page.getByRole('textbox', { name: 'Words and phrases, one per line' });
  await expect(list).toHaveValue(/^fuck\*\nmotherfuck\*/);
  await expect(page.getByRole('radio', { name: 'Hold for approval' })).toBeChecked();
  await saveBlockedWords(page, 'zonk\nblarg*', 'Refuse');
  await expect(page.getByText('2 of at most 1000.')).toBeVisible();
  await page.getByRole('heading', { name: 'Blocked words' }).scrollIntoViewIfNeeded();
  await page.screenshot(shot('console-blocked-words-projector'));

  // An attendee on a phone asks with the word: refused under the field, the text kept.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const attendee = await phone.newPage();
  await join(attendee, 'grace');
  await attendee.getByRole('button', { name: 'ASK A QUESTION' }).click();
  const dialog = attendee.getByRole('dialog', { name: 'Ask a Question' });
  const field = dialog.getByPlaceholder('Type your question here…');
  await field.fill('Is the Z.O.N.K ready?');
  await dialog.getByLabel('Speaker').selectOption({ label: speaker.name });
  await dialog.getByRole('button', { name: 'Submit Question' }).click();
  await expect(
    dialog.getByText(
      'This contains a word the organisers do not allow here; rephrase it and send it again.',
    ),
  ).toBeVisible();
  await expect(field).toHaveValue('Is the Z.O.N.K ready?');
  await expect(dialog.getByText(/zonk/i)).toHaveCount(0);
  await expectNoHorizontalScroll(attendee);
  await attendee.screenshot(shot('refusal-phone'));

  // The organiser switches to starring: the same question goes through, starred in the room.
  await saveBlockedWords(page, 'zonk\nblarg*', 'Star the word');
  await dialog.getByRole('button', { name: 'Submit Question' }).click();
  await expect(attendee.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
  await attendee.goto('/speakerscard');
  await attendee.getByRole('link', { name: new RegExp(speaker.name) }).click();
  const room = attendee.getByRole('region', { name: `Questions for ${speaker.name}` });
  await expect(room.getByText('Is the *.*.*.* ready?')).toBeVisible();
  await attendee.screenshot(shot('starred-question-phone'));

  // The console's editor on a phone.
  const consolePhone = await phone.newPage();
  await logInAsAdmin(consolePhone, ADMIN_PASSWORD, 'settings');
  const heading = consolePhone.getByRole('heading', { name: 'Blocked words' });
  await heading.scrollIntoViewIfNeeded();
  const starring = consolePhone.getByRole('radio', { name: 'Star the word' });
  await expect(starring).toBeChecked();
  await starring.scrollIntoViewIfNeeded();
  await expectNoHorizontalScroll(consolePhone);
  await consolePhone.screenshot(shot('console-blocked-words-phone'));
  await phone.close();
});

import { expect, join, test } from './fixtures.ts';
import {
  askViaApi,
  chooseSpeakerPicture,
  createSpeaker,
  expectNoHorizontalScroll,
  fillSpeakerForm,
  uniqueName,
} from './qa-helpers.ts';

test.describe('speaker sign-up', () => {
  test('every field is required, and a server error shows in red in the form', async ({ page }) => {
    await page.goto('/Speakerform');
    await page.getByRole('button', { name: 'Add Speaker Bio' }).click();
    const form = page.getByRole('dialog', { name: 'Join as Speaker' });
    await form.getByRole('button', { name: 'Upload Bio' }).click();
    await expect(form.getByText('Full name is required')).toBeVisible();
    await expect(form.getByText('Stack is required')).toBeVisible();
    await expect(form.getByText('Bio is required')).toBeVisible();
    await expect(form.getByText('Picture is required')).toBeVisible();

    await fillSpeakerForm(form, {
      name: uniqueName('Mallory'),
      stack: 'Forgery',
      bio: 'Not a picture person.',
    });
    // Claims to be a PNG; the server reads the bytes and refuses it.
    await chooseSpeakerPicture(page, form, {
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image'),
    });
    await form.getByRole('button', { name: 'Upload Bio' }).click();
    const error = form.getByRole('alert');
    await expect(error).toContainText('The picture must be an image');
    await expect(error.getByText(/The picture must be an image/)).toHaveCSS(
      'color',
      'rgb(201, 42, 42)',
    );
    // The form keeps what was typed.
    await expect(form.getByLabel('Stack')).toHaveValue('Forgery');
    await expect(page.getByRole('dialog', { name: 'Uploaded Succesfully' })).toBeHidden();

    // Another picture, and it works; "View Memories" goes home.
    await form.getByRole('button', { name: 'Remove the picture' }).click();
    await chooseSpeakerPicture(page, form);
    await form.getByRole('button', { name: 'Upload Bio' }).click();
    const uploaded = page.getByRole('dialog', { name: 'Uploaded Succesfully' });
    await expect(uploaded.getByLabel('Your username')).toHaveText(/^mallory-[a-z]+$/);
  });

  test('an SVG is refused the moment it is picked, naming the formats the server reads', async ({
    page,
  }) => {
    await page.goto('/Speakerform');
    await page.getByRole('button', { name: 'Add Speaker Bio' }).click();
    const form = page.getByRole('dialog', { name: 'Join as Speaker' });
    const chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Choose a picture' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'),
    });
    // Before any submit: the picker refuses it and says which formats are read.
    await expect(
      form.getByText('The picture must be an image (JPG, PNG, WebP, GIF, HEIC, HEIF or AVIF)'),
    ).toBeVisible();
    await expect(form.getByRole('button', { name: 'Remove the picture' })).toBeHidden();
    // A HEIC that the browser gives no type is taken.
    const heic = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Choose a picture' }).click();
    await (await heic).setFiles({ name: 'IMG_0001.HEIC', mimeType: '', buffer: Buffer.from('x') });
    await expect(form.getByText('IMG_0001.HEIC')).toBeVisible();
    await expect(form.getByText(/The picture must be an image/)).toBeHidden();
  });

  test('"View Memories" goes to /home', async ({ page }) => {
    await join(page, 'speaker-and-attendee');
    await page.goto('/Speakerform');
    await page.getByRole('button', { name: 'Add Speaker Bio' }).click();
    const form = page.getByRole('dialog', { name: 'Join as Speaker' });
    await fillSpeakerForm(form, {
      name: uniqueName('Hedy'),
      stack: 'Radio',
      bio: 'Frequency hopping.',
    });
    await chooseSpeakerPicture(page, form);
    await form.getByRole('button', { name: 'Upload Bio' }).click();
    await page
      .getByRole('dialog', { name: 'Uploaded Succesfully' })
      .getByRole('link', { name: 'View Memories' })
      .click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('an unknown dashboard says "Speaker not found"', async ({ page }) => {
    await page.goto('/speakers/nobody-at-all/dashboard');
    await expect(page.getByText('Speaker not found')).toBeVisible();
  });

  test('the dashboard fits a phone', async ({ page, request }) => {
    const speaker = await createSpeaker(request, uniqueName('Phone'));
    await askViaApi(request, speaker, `A long word: ${'x'.repeat(120)}`, 'kim');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/speakers/${speaker.username}/dashboard`);
    await expect(page.getByRole('heading', { name: `${speaker.name} Dashboard` })).toBeVisible();
    await expect(page.getByRole('link', { name: /@kim on X/ })).toBeVisible();
    await expectNoHorizontalScroll(page);
  });
});

test.describe('asking a question', () => {
  test('the dialog requires a question and a speaker, and keeps the form when sending fails', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Grace'));
    await join(page, 'curious');
    await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
    const select = dialog.getByLabel('Speaker');
    await expect(select.locator('option').first()).toHaveText('Select a speaker');
    await expect(select.locator('option').first()).toBeDisabled();
    // The list refreshes while the dialog is open: a speaker who signs up now appears.
    const late = await createSpeaker(request, uniqueName('Late'));
    await expect(select.locator('option', { hasText: late.name })).toHaveCount(1);

    await dialog.getByRole('button', { name: 'Submit Question' }).click();
    await expect(dialog.getByText('Question is required')).toBeVisible();
    await expect(select).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByPlaceholder('Type your question here…').fill('Will this survive?');
    await select.selectOption({ label: speaker.name });
    await page.route('**/questions', (route) =>
      route.request().method() === 'POST' ? route.abort() : route.fallback(),
    );
    await dialog.getByRole('button', { name: 'Submit Question' }).click();
    await expect(page.getByText('Failed to submit the question.')).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByPlaceholder('Type your question here…')).toHaveValue(
      'Will this survive?',
    );
    await expect(select).toHaveValue(speaker._id);
    await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeHidden();

    // Sending again once the network is back works, and clears the form.
    await page.unroute('**/questions');
    await dialog.getByRole('button', { name: 'Submit Question' }).click();
    await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
    await page
      .getByRole('dialog', { name: 'Thank you!' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
    await expect(dialog.getByPlaceholder('Type your question here…')).toHaveValue('');
    await expect(select).toHaveValue('');
  });

  test('/questions lists every question newest first, live, with a "Mine" filter', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Barbara'));
    await askViaApi(request, speaker, 'Older question from someone else', 'other-person');
    await askViaApi(request, speaker, 'My own question', 'me-myself');
    await join(page, 'me-myself');
    await page.goto('/questions');
    const feed = page.getByRole('feed', { name: 'Questions' });
    await expect(feed.getByText('My own question')).toBeVisible();
    await expect(feed.getByText('Older question from someone else')).toBeVisible();
    const texts = await feed.getByRole('article').allTextContents();
    const mine = texts.findIndex((t) => t.includes('My own question'));
    const older = texts.findIndex((t) => t.includes('Older question from someone else'));
    expect(mine).toBeLessThan(older);

    // A question asked elsewhere appears at the top without a reload.
    await askViaApi(request, speaker, 'Brand new one', 'third-person');
    await expect(feed.getByRole('article').first()).toContainText('Brand new one');

    await page.getByText('Mine', { exact: true }).click();
    await expect(page).toHaveURL(/show=mine/);
    await expect(feed.getByText('My own question')).toBeVisible();
    await expect(feed.getByText('Older question from someone else')).toBeHidden();
    await expect(feed.getByText('Brand new one')).toBeHidden();
    await expect(feed.getByRole('link', { name: speaker.name })).toHaveAttribute(
      'href',
      `/speakerscard?speaker=${speaker._id}`,
    );
  });

  test('typed text is shown as text, never as markup', async ({ page, request }) => {
    const speaker = await createSpeaker(request, uniqueName('Safe'));
    const attack = '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>';
    await askViaApi(request, speaker, attack, '<b>bold</b>');
    await page.goto(`/speakerscard?speaker=${speaker._id}`);
    await expect(page.getByText(attack)).toBeVisible();
    await expect(page.getByText('@<b>bold</b>')).toBeVisible();
    await page.goto(`/speakers/${speaker.username}/dashboard`);
    await expect(page.getByText(attack)).toBeVisible();
    // Not an X handle: shown as text, linked nowhere.
    await expect(page.getByText('<b>bold</b>', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: /on X/ })).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

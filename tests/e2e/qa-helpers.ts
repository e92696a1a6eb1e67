import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect } from './fixtures.ts';

/** A real PNG portrait (a gradient with a circle), made fresh for each run. */
export async function portraitPng(size = 240): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#4c6ef5"/><stop offset="1" stop-color="#be4bdb"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="50%" cy="42%" r="22%" fill="#fff" fill-opacity="0.85"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface CreatedSpeaker {
  _id: string;
  name: string;
  username: string;
}

/** A name no other test of the same server uses. */
export const uniqueName = (first: string) =>
  `${first} ${Math.random().toString(36).slice(2, 8).replace(/\d/g, 'x')}`;

/** Signs a speaker up through the API (for tests about other screens). */
export async function createSpeaker(
  request: APIRequestContext,
  name: string,
  stack = 'TypeScript',
): Promise<CreatedSpeaker> {
  const response = await request.post('/api/speakersadd', {
    multipart: {
      name,
      stack,
      bio: 'Builds things for the web.',
      picture: { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() },
    },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { speaker: CreatedSpeaker };
  return body.speaker;
}

/** Asks a question through the API. */
export async function askViaApi(
  request: APIRequestContext,
  speaker: CreatedSpeaker,
  question: string,
  askerUsername: string,
): Promise<void> {
  const response = await request.post('/questions', {
    data: { speakerId: speaker._id, speakerName: speaker.name, question, askerUsername },
  });
  expect(response.status()).toBe(201);
}

/** Nothing on the page scrolls sideways. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  // Polled: what lays itself out from a ResizeObserver (the console's charts) settles a frame
  // or two after the viewport changes.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
}

/** Types the text fields of the "Join as Speaker" form. */
export async function fillSpeakerForm(
  form: Locator,
  fields: { name: string; stack: string; bio: string },
): Promise<void> {
  await form.getByLabel('Full Name').fill(fields.name);
  await form.getByLabel('Stack').fill(fields.stack);
  await form.getByLabel('Bio').fill(fields.bio);
}

/** Picks a picture in the "Join as Speaker" form through its file chooser (a portrait PNG). */
export async function chooseSpeakerPicture(
  page: Page,
  form: Locator,
  file?: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await form.getByRole('button', { name: 'Choose a picture' }).click();
  await (
    await chooser
  ).setFiles(file ?? { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() });
}

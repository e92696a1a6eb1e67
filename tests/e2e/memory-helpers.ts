import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';

/** A real PNG made here: a flat colour of the given size. */
export const png = (background: string, width = 160, height = 120): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Picks files through a dialog's drop zone, as a person taps it. */
export async function chooseFiles(
  page: Page,
  scope: Locator,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await scope.getByRole('button', { name: 'Choose photos or videos' }).click();
  await (await chooser).setFiles(files);
}

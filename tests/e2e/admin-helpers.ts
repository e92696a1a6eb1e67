import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** The admin password the browser specs start their servers with (`ADMIN_PASSWORD`). */
export const ADMIN_PASSWORD = 'e2e moderator password';

/**
 * Logs in on /borderlessadmin as a moderator would (a wrong password shows the error), on the
 * console's Memories tab (`tab`: another one).
 */
export async function logInAsAdmin(
  page: Page,
  password = ADMIN_PASSWORD,
  tab = 'memories',
): Promise<void> {
  await page.goto(`/borderlessadmin?tab=${tab}`);
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Username' }).fill('admin');
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

export const adminSearchBox = (page: Page) =>
  page.getByPlaceholder('Search by username or text...');

/** A memory under moderation, by its author. */
export const adminCard = (page: Page, username: string) =>
  page.getByRole('article', { name: `Memory by ${username}` });

import { messagesIn } from '../../src/shared/i18n/catalogs.ts';
import { expect, test, untilHydrated } from './fixtures.ts';

const french = messagesIn('fr');
const arabic = messagesIn('ar');

test.describe('the join page’s language control', () => {
  test('turns the page into the language chosen, keeps the choice, and back to English', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Join Now' })).toBeVisible();
    // The control works once the page's code has taken the server's page over.
    await untilHydrated(page);
    const control = page.getByRole('combobox', { name: 'Language' });
    // Each language offered by its own name, and marked as written in it.
    await expect(control.locator('option[value="ja"]')).toHaveText('日本語');
    await expect(control.locator('option[value="ar"]')).toHaveAttribute('lang', 'ar');

    await control.selectOption({ label: 'Français' });
    await expect(page.getByRole('button', { name: french.format('join.button') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(
      page.getByRole('textbox', { name: french.format('join.usernameLabel') }),
    ).toBeVisible();

    // The choice is this device's: a reload shows the page in French again.
    await page.reload();
    await expect(page.getByRole('button', { name: french.format('join.button') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    expect(await page.evaluate(() => window.localStorage.getItem('confab-language'))).toBe('fr');

    // Right to left in Arabic; the control is named "Language" in the language shown.
    await page
      .getByRole('combobox', { name: french.format('language.label') })
      .selectOption({ label: 'العربية' });
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.getByRole('button', { name: arabic.format('join.button') })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('join-ar.png') });

    // Back to English: the spec's texts, left to right.
    await page
      .getByRole('combobox', { name: arabic.format('language.label') })
      .selectOption({ label: 'English' });
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('button', { name: 'Join Now' })).toBeVisible();
    await expect(page.getByText('Connect. Share. Engage.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Privacy notice' })).toBeVisible();
  });
});

test.describe('a language picked before the page’s code arrived', () => {
  test('is chosen once the code takes the page over, with the name typed meanwhile', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The page's code is held back: the server's page is all there is.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await page.getByLabel('Username').fill('early_bird');
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Français' });
    // Still the server's page, in English.
    await expect(page.getByRole('button', { name: 'Join Now' })).toBeVisible();
    release();
    await expect(page.getByRole('button', { name: french.format('join.button') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('combobox', { name: french.format('language.label') })).toHaveValue(
      'fr',
    );
    await expect(
      page.getByRole('textbox', { name: french.format('join.usernameLabel') }),
    ).toHaveValue('early_bird');
    expect(await page.evaluate(() => window.localStorage.getItem('confab-language'))).toBe('fr');
    await page.evaluate(() => window.localStorage.removeItem('confab-language'));
  });
});

test.describe('the header’s language control', () => {
  test('is in the bar for someone who has not joined, and in the menu once they have', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/SpeakerLogin');
    const control = page.getByRole('banner').getByRole('combobox', { name: 'Language' });
    await control.selectOption({ label: 'Deutsch' });
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(
      page
        .getByRole('banner')
        .getByRole('combobox', { name: messagesIn('de').format('language.label') }),
    ).toHaveValue('de');
    // The bar still fits a narrow phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await page.screenshot({ path: test.info().outputPath('header-de.png') });
    await page.evaluate(() => window.localStorage.setItem('confab-language', 'en'));
  });
});

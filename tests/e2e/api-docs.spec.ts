import { expect, test } from './fixtures.ts';

test.describe('API reference', () => {
  test('renders every group of operations from this server alone, under the CSP', async ({
    page,
    baseURL,
  }) => {
    const origin = new URL(baseURL ?? '').origin;
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== origin) elsewhere.push(request.url());
    });
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.text().startsWith('csp:')) blocked.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.log(`csp: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    await page.goto('/api/docs');
    await expect(page.getByRole('heading', { name: 'Confab API', level: 1 })).toBeVisible();
    const sidebar = page.getByRole('complementary');
    for (const group of ['System', 'Memories', 'Media', 'Speakers', 'Questions', 'Admin']) {
      await expect(sidebar.getByRole('link', { name: group, exact: true })).toBeVisible();
    }
    await sidebar.getByRole('button', { name: 'Open Group - Questions' }).click();
    await sidebar.getByRole('link', { name: /Ask a speaker a question/ }).click();
    await expect(page.getByRole('heading', { name: 'Ask a speaker a question' })).toBeVisible();
    await expect(page.getByText('askerUsername', { exact: true }).first()).toBeVisible();
    // Nothing on the page sends the document to a hosted client elsewhere.
    await expect(page.locator('a[href*="client.scalar.com"]')).toHaveCount(0);

    expect(elsewhere).toEqual([]);
    // The bundle's zod probes for `new Function` once and falls back when the CSP refuses it
    // (as the app's own code did before decision 074); nothing else may be refused.
    expect(blocked.filter((report) => report !== 'csp: script-src eval')).toEqual([]);
  });
});

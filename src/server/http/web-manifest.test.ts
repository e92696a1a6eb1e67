import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../../../tests/support/test-app.ts';

describe('the web app manifest and the share target', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { EVENT_NAME: 'DevConf Berlin 2026' } });
  });
  afterAll(() => t.close());

  it('is made from the current settings, so a change applies without a rebuild', async () => {
    const first = await fetch(`${t.url}/manifest.webmanifest`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('application/manifest+json');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const manifest = (await first.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'DevConf Berlin 2026',
      short_name: 'DevConf Ber…',
      display: 'standalone',
      start_url: '/home',
    });
    await t.app.deps.settings.update({ eventName: 'NightConf', primaryColor: '#E03131' });
    const changed = (await (await fetch(`${t.url}/manifest.webmanifest`)).json()) as Record<
      string,
      unknown
    >;
    expect(changed).toMatchObject({
      name: 'NightConf',
      short_name: 'NightConf',
      theme_color: '#e03131',
    });
    expect(changed.share_target).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: {
        title: 'title',
        text: 'text',
        files: [{ name: 'files', accept: ['image/*', 'video/*'] }],
      },
    });
  });

  it('opens the memory form for a share that no service worker took, keeping nothing', async () => {
    const form = new FormData();
    form.append('files', new Blob(['not kept'], { type: 'image/png' }), 'a.png');
    const response = await fetch(`${t.url}/share-target`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/memoryForm');
    expect(await t.storedMediaKeys()).toEqual([]);
  });
});

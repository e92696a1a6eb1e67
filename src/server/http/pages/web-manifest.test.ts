import { describe, expect, it } from 'vitest';
import { SHARE_TARGET_PATH } from '../../../shared/pwa.ts';
import { useTestApp } from '../../../../tests/support/test-app.ts';
import { webManifest } from './web-manifest.ts';

describe('the web app manifest and the share target', () => {
  const t = useTestApp({ env: { EVENT_NAME: 'DevConf Berlin 2026' } });

  it('is made from the current settings, so a change applies without a rebuild', async () => {
    const first = await fetch(`${t.url}/manifest.webmanifest`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('application/manifest+json');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const manifest = (await first.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'DevConf Berlin 2026',
      // Too long for a home screen: its first word, whole.
      short_name: 'DevConf',
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
    // All of it as made from the settings now, the share target too.
    expect(changed).toEqual(webManifest({ eventName: 'NightConf', primaryColor: '#e03131' }));
    // Shared photos and videos come as a form, where the service worker or the route below
    // takes them.
    expect(changed.share_target).toMatchObject({
      action: SHARE_TARGET_PATH,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { files: [{ name: 'files', accept: ['image/*', 'video/*'] }] },
    });
  });

  it('names the app on a home screen by the whole event name up to 12 characters, else its first word', () => {
    const shortName = (eventName: string) =>
      webManifest({ eventName, primaryColor: '#e03131' }).short_name;
    expect(shortName('DevFest Lisbon 2026')).toBe('DevFest');
    expect(shortName('DevFest 2026')).toBe('DevFest 2026');
    expect(shortName('JSConf')).toBe('JSConf');
    // A first word longer than 12 characters is cut at 12, without an ellipsis.
    expect(shortName('Supercalifragilistic Summit')).toBe('Supercalifra');
    expect(shortName('  Kubernetes   Community Days ')).toBe('Kubernetes');
    // Cut between characters as people see them.
    expect(shortName('🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀 Conf')).toBe('🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀');
  });

  it("writes its own words in the event's default language, with its direction", () => {
    expect(webManifest({ eventName: 'DevConf', primaryColor: '#e03131' })).toMatchObject({
      description: 'Share memories and ask speakers questions, live.',
      lang: 'en',
      dir: 'ltr',
    });
    expect(
      webManifest({ eventName: 'DevConf', primaryColor: '#e03131', defaultLanguage: 'fr' }),
    ).toMatchObject({
      description: 'Partagez vos souvenirs et posez vos questions aux intervenants, en direct.',
      lang: 'fr',
    });
    expect(
      webManifest({ eventName: 'DevConf', primaryColor: '#e03131', defaultLanguage: 'ar' }).dir,
    ).toBe('rtl');
  });

  it('opens the memory form for a share that no service worker took, keeping nothing', async () => {
    const form = new FormData();
    form.append('files', new Blob(['not kept'], { type: 'image/png' }), 'a.png');
    const response = await fetch(`${t.url}${SHARE_TARGET_PATH}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/memoryForm');
    expect(await t.storedMediaKeys()).toEqual([]);
  });
});

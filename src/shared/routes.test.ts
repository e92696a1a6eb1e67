import { describe, expect, it } from 'vitest';
import { routePreload } from './route-preloads.ts';
import {
  CLIENT_PATHS,
  clientRouteAt,
  hasAppHeader,
  roomPresentPath,
  sessionOverlayPath,
  sessionPath,
  sessionPresentPath,
  speakerDashboardPath,
} from './routes.ts';

const ID = '0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5d';

describe('the client routes', () => {
  it('are found at their address, with or without a trailing slash, and nowhere else', () => {
    const found = {
      '/': 'join',
      '/home': 'home',
      '/home/': 'home',
      '/memory': 'memory',
      '/memories': 'memories',
      [speakerDashboardPath('ada lovelace')]: 'speakerDashboard',
      '/schedule': 'schedule',
      [sessionPath('0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5d')]: 'session',
      '/privacy': 'privacy',
      [roomPresentPath(ID)]: 'roomPresent',
      [sessionPresentPath(ID)]: 'sessionPresent',
      [sessionOverlayPath(ID)]: 'sessionOverlay',
    };
    for (const [pathname, name] of Object.entries(found)) {
      expect(clientRouteAt(pathname), pathname).toBe(name);
    }
    for (const pathname of [
      '//',
      '/homes',
      '/home/x',
      '/speakers//dashboard',
      '/SPEAKERSCARD',
      '/sessions/',
      '/sessions/a/b',
    ]) {
      expect(clientRouteAt(pathname), pathname).toBeUndefined();
    }
  });

  it('say which pages start with the attendee header: all but the join page and the admin', () => {
    expect(hasAppHeader('/')).toBe(false);
    expect(hasAppHeader('/borderlessadmin')).toBe(false);
    expect(hasAppHeader('/borderlessadmin/')).toBe(false);
    // The projectors are full screen.
    for (const path of [roomPresentPath(ID), sessionPresentPath(ID), sessionOverlayPath(ID)]) {
      expect(hasAppHeader(path), path).toBe(false);
    }
    for (const path of ['/home', '/speakerscard', '/memory', '/schedule', '/no-such-page']) {
      expect(hasAppHeader(path), path).toBe(true);
    }
  });

  it('name what a page loads first, as the client asks for it', () => {
    expect(routePreload('/')).toBeUndefined();
    expect(routePreload('/home')?.data?.(new URLSearchParams())).toEqual(['/api/memory?limit=60']);
    const id = '0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5d';
    expect(
      routePreload(CLIENT_PATHS.speakersCard)?.data?.(new URLSearchParams({ speaker: id })),
    ).toEqual(['/api/speakerscard', `/api/questions/realtime?speakerId=${id}&limit=200`]);
    expect(routePreload('/speakerscard')?.data?.(new URLSearchParams({ speaker: '../x' }))).toEqual(
      ['/api/speakerscard'],
    );
    // The programme's screens read the schedule first (a talk's page for its room and zone).
    expect(routePreload('/schedule')?.data?.(new URLSearchParams())).toEqual(['/api/schedule']);
    expect(routePreload(sessionPath(id))?.data?.(new URLSearchParams())).toEqual(['/api/schedule']);
  });
});

import './app/ui-kit-styles.ts';
import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { CLIENT_PATHS } from '../shared/routes.ts';
import { AppProviders } from './app/providers.tsx';
import { AppRouter, preloadRoute } from './app/router.tsx';
import { getStoredUsername } from './lib/username.ts';
import { loadCatalog } from './i18n/catalog-loaders.ts';
import { firstLanguage, notePickedEarly, setCatalogLoader, showLanguage } from './i18n/language.ts';

/** Runs `run` once the render it is part of is in the page, before the browser paints it. */
function AfterFirstCommit({ run }: { run: () => void }) {
  useLayoutEffect(run, [run]);
  return null;
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const app = (
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>
);

// The first render is in the language of the page (decision 246): its catalog, a small chunk of
// its own, is read first.
setCatalogLoader(loadCatalog);
// A catalog that cannot be read (offline, before the service worker kept it) leaves the app in
// the language already shown rather than blank.
const servedLanguage = document.documentElement.lang;
const pageLanguage = firstLanguage(window.location.pathname);
const language = showLanguage(pageLanguage).catch(() => undefined);

// The join page comes prerendered (decision 106): React takes over the markup the browser has
// already painted. Someone who has joined is sent on from it at once, which would not match
// that markup, so their page is drawn afresh, as every other page is.
const hydrate =
  container.hasAttribute('data-prerendered') &&
  window.location.pathname === CLIENT_PATHS.join &&
  !getStoredUsername() &&
  // A page in another language than the one chosen (a copy kept offline) is drawn afresh.
  pageLanguage === servedLanguage;

if (hydrate) {
  // In slices, like the first render below: the page is already painted and can be read and
  // scrolled while React takes it over.
  void language.then(() => {
    // A language picked in the page's control before now is chosen once React has the page.
    notePickedEarly(container);
    startTransition(() => {
      hydrateRoot(container, app);
    });
  });
} else {
  // A prerendered shell (decision 173) takes no tap until this first render has replaced it.
  const replacesShell = () => {
    container.removeAttribute('data-shell');
  };
  const root = createRoot(container);
  // The first screen's code is loaded before the first render, so it renders in one go instead
  // of a spinner and then, after React's reveal delay, the screen (decision 093). Not a top-level
  // await: the screens' chunks import from this one, which must finish evaluating first.
  void Promise.all([preloadRoute(window.location.pathname), language]).then(() => {
    // As a transition, React renders the app in slices and gives the main thread back between
    // them, so a slow phone can take a tap or paint while the first screen renders (decision 074).
    startTransition(() => {
      root.render(
        <>
          {app}
          <AfterFirstCommit run={replacesShell} />
        </>,
      );
    });
  });
}

// The service worker (decision 171): registered once the page has loaded and the browser is idle,
// so it never competes with the first screen. Code loaded after the first paint (decision 174)
// may arrive after the page's load event.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  const whenIdle = () => {
    const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
    if ('requestIdleCallback' in window) window.requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 2000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

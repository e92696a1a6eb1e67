import './app/ui-kit-styles.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.tsx';
import { AppRouter, preloadRoute } from './app/router.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const root = createRoot(container);
// The first screen's code is loaded before the first render, so it renders in one go instead of
// a spinner and then, after React's reveal delay, the screen (decision 093). Not a top-level
// await: the screens' chunks import from this one, which must finish evaluating first.
void preloadRoute(window.location.pathname).then(() => {
  // As a transition, React renders the app in slices and gives the main thread back between
  // them, so a slow phone can take a tap or paint while the first screen renders (decision 074).
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders>
          <AppRouter />
        </AppProviders>
      </StrictMode>,
    );
  });
});

import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';

/**
 * The join page's first screen as HTML, made at build time (`scripts/prerender.mjs`, decision
 * 106): the same tree `main.tsx` renders, at `/`, so the browser paints it before any script and
 * React hydrates it. The event's name is `EVENT_NAME_SLOT`, which the server fills in.
 */
export function renderJoinPage(): string {
  return renderToString(
    <StrictMode>
      <AppProviders>
        <StaticRouter location="/">
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
  );
}

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

/** Dev-only: send browser navigations to the SPA even where the API has a route (GET /questions). */
const htmlBypass = (request: { method?: string; headers: { accept?: string } }) =>
  request.method === 'GET' && request.headers.accept?.includes('text/html')
    ? '/index.html'
    : undefined;

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // Browsers without <link rel="modulepreload"> still load every chunk, one hop later.
    modulePreload: { polyfill: false },
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: {
      '/api': apiTarget,
      '/media': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
      '^/speakers$': { target: apiTarget, bypass: htmlBypass },
      '^/questions$': { target: apiTarget, bypass: htmlBypass },
    },
  },
});

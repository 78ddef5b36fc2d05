import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev -w @hearth/web` serves the app with hot reload and forwards everything that is not the
// app itself to a running panel (themes are served by the panel too).
const panel = process.env.HEARTH_PANEL_URL ?? 'http://localhost:8080';
const proxied = ['/api', '/auth/', '/oauth2', '/proxy', '/theme', '/swagger'];

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(
      proxied.map((path) => [
        path,
        {
          target: panel,
          ws: path === '/proxy',
          // /auth/* pages are app routes on a GET from the browser; only API calls go to the panel.
          bypass: (req) =>
            path === '/auth/' && req.method === 'GET' && req.headers.accept?.includes('text/html')
              ? '/index.html'
              : undefined,
        },
      ]),
    ),
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
});

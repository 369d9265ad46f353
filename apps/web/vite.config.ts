import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressAssets } from './build/precompress-assets.ts';
import { trimGiphySdk } from './build/trim-giphy-sdk.ts';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  plugins: [react(), tailwindcss(), trimGiphySdk(), precompressAssets()],
  build: {
    target: 'es2022',
    sourcemap: false,
    // The server reads it to preload a route's lazy scripts with its page (docs/web.md, "First page").
    manifest: true,
    // Every browser the build targets loads scripts without the preloads when it does not know
    // `modulepreload` (Safari before 17): the preloads only save a round trip, and the polyfill
    // would cost every route's first screen 0.4 KB (docs/web.md, "First page").
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/v1': 'http://localhost:3000',
      '/media': 'http://localhost:3000',
      '/oidc': 'http://localhost:3000',
    },
  },
});

import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressAssets } from './build/precompress-assets.ts';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  plugins: [react(), tailwindcss(), precompressAssets()],
  build: {
    target: 'es2022',
    sourcemap: false,
    // The server reads it to preload a route's lazy scripts with its page (docs/web.md, "First page").
    manifest: true,
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

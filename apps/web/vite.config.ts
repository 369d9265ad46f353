import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // The contracts' first-screen checkers by themselves: importing them through the package's
      // index would bring every schema, and all of zod, into the first chunk.
      '@sticky/contracts/first-screen': fileURLToPath(
        new URL('../../packages/contracts/src/first-screen.ts', import.meta.url),
      ),
    },
  },
  plugins: [react(), tailwindcss()],
  build: {
    target: 'es2022',
    sourcemap: false,
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

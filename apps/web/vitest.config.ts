import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
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
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});

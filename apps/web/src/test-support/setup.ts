import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { installDom } from '@/test-support/dom.ts';

// What jsdom lacks, for every test; a test that needs other media queries installs again.
// Stubbed globals are put back after each test (`unstubGlobals` in vitest.config.ts).
beforeEach(() => {
  installDom();
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

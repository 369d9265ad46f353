import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { repoRoot } from '../lib/paths.ts';

/**
 * The least JavaScript any page of this stack can ship: React, React DOM, React Router and
 * TanStack Query rendering one paragraph, built by the same Vite as the app. Initial JS is
 * printed over it: what the app adds on top of its frameworks.
 */
export async function measureFrameworkFloor(): Promise<{
  gzipBytes: number;
  bytes: number;
  packages: string[];
}> {
  // Inside node_modules so the packages resolve as they do for the app.
  const root = path.join(repoRoot, 'node_modules', '.cache', 'sticky-bench-floor');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>',
  );
  fs.writeFileSync(
    path.join(root, 'main.js'),
    `import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { jsx } from 'react/jsx-runtime';
const router = createBrowserRouter([{ path: '/', element: jsx('p', { children: 'Hello' }) }]);
createRoot(document.getElementById('root')).render(
  jsx(QueryClientProvider, { client: new QueryClient(), children: jsx(RouterProvider, { router }) }),
);
`,
  );
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    build: { outDir: path.join(root, 'dist'), target: 'es2022', emptyOutDir: true },
  });
  const assets = path.join(root, 'dist', 'assets');
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of fs.readdirSync(assets).filter((name) => name.endsWith('.js'))) {
    const data = fs.readFileSync(path.join(assets, file));
    bytes += data.length;
    gzipBytes += zlib.gzipSync(data, { level: 9 }).length;
  }
  fs.rmSync(root, { recursive: true, force: true });
  return {
    gzipBytes,
    bytes,
    packages: ['react', 'react-dom', 'react-router', '@tanstack/react-query'],
  };
}

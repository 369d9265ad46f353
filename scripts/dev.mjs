// `npm run dev`: the web app from Vite (hot reload) in front of the server (restarted on change).
// One origin for the browser: Vite serves the SPA and proxies everything else to the server,
// whose PUBLIC_URL is Vite's URL, so sign-in redirects come back through Vite and cookies stay
// same-origin (docs/architecture.md, "Development server").
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webRoot = path.join(repoRoot, 'apps', 'web');

// npm runs scripts with node_modules/.bin first on PATH, where the `node` package puts Node 24
// (docs/architecture.md, "Runtime"); the server below runs on this same binary.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `npm run dev runs on Node 24 LTS (from the \`node\` dev dependency); this is Node ${process.version}. Run it through npm after \`npm install\`.`,
  );
  process.exit(1);
}

const serverPort = Number(process.env.PORT || 3000);
if (!Number.isInteger(serverPort) || serverPort < 1 || serverPort > 65535) {
  console.error(`PORT must be a number from 1 to 65535 for npm run dev, got ${process.env.PORT}`);
  process.exit(1);
}
const serverOrigin = `http://127.0.0.1:${serverPort}`;
/** Every path the server answers; Vite answers the rest (the SPA and its modules). */
const serverPaths = ['/api', '/v1', '/media', '/oidc', '/healthz', '/readyz'];

const { createServer } = await import('vite');
const vite = await createServer({
  root: webRoot,
  configFile: path.join(webRoot, 'vite.config.ts'),
  server: {
    // The Host header is kept (no changeOrigin): the server sees the origin the browser uses.
    proxy: Object.fromEntries(serverPaths.map((prefix) => [prefix, { target: serverOrigin }])),
  },
});
await vite.listen();
const publicUrl = (
  vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}/`
).replace(/\/$/, '');

const server = spawn(
  process.execPath,
  ['--watch', '--import', 'tsx', path.join('apps', 'server', 'src', 'main.ts')],
  {
    cwd: repoRoot,
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: String(serverPort),
      HOST: process.env.HOST ?? '127.0.0.1',
      PUBLIC_URL: publicUrl,
    },
  },
);

console.log(
  `\n  Sticky (development): open ${publicUrl}\n` +
    `  Vite serves the web app with hot reload; the server (${serverOrigin}) restarts when its files change.\n`,
);

let isStopping = false;
async function stop(code) {
  if (isStopping) return;
  isStopping = true;
  const serverExited =
    server.exitCode === null && server.signalCode === null
      ? new Promise((resolve) => server.once('exit', resolve))
      : Promise.resolve();
  server.kill('SIGTERM');
  await Promise.all([vite.close(), serverExited]);
  process.exit(code);
}

server.on('exit', (code, signal) => {
  if (isStopping) return;
  console.error(`\n  The server stopped (${code ?? signal}); stopping Vite too.`);
  void stop(typeof code === 'number' && code !== 0 ? code : 1);
});
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

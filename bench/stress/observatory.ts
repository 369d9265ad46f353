import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { startServer } from './server.ts';

/**
 * The real Mozilla HTTP Observatory (`@mdn/mdn-http-observatory`, installed outside the repo
 * with `npm install --ignore-scripts`; its install scripts download data) against Sticky as it
 * is deployed: PUBLIC_URL https, behind a TLS proxy on :443 that also redirects :80 to https.
 * The scanner only knows ports 80 and 443 of a host name, hence the proxy; our own CA is
 * trusted through NODE_EXTRA_CA_CERTS. Set STICKY_OBSERVATORY_DIR to the install folder.
 */
export async function runObservatory(options: { workDir: string; log: (line: string) => void }) {
  const installDir = process.env.STICKY_OBSERVATORY_DIR;
  const scanner =
    installDir && path.join(installDir, 'node_modules/@mdn/mdn-http-observatory/src/scan.js');
  if (!scanner || !fs.existsSync(scanner)) {
    return {
      skipped:
        'set STICKY_OBSERVATORY_DIR to a folder with `npm install --ignore-scripts @mdn/mdn-http-observatory`',
    };
  }
  // The HSTS preload list comes from an install script (skipped: it downloads); localhost is
  // on no preload list, so an empty one is the truth here.
  const preload = path.join(path.dirname(scanner), '..', 'conf', 'hsts-preload.json');
  if (!fs.existsSync(preload)) fs.writeFileSync(preload, '{}');
  const certDir = path.join(options.workDir, 'tls');
  fs.mkdirSync(certDir, { recursive: true });
  const key = path.join(certDir, 'key.pem');
  const cert = path.join(certDir, 'cert.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (made.status !== 0) return { skipped: `openssl failed: ${made.stderr}` };

  const dataDir = path.join(options.workDir, 'observatory');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  const server = await startServer(dataDir, {
    SEED_STARTER_CATALOG: 'false',
    PUBLIC_URL: 'https://localhost',
  });
  const upstream = new URL(server.url);
  const proxy = https.createServer(
    { key: fs.readFileSync(key), cert: fs.readFileSync(cert) },
    (request, response) => {
      const forwarded = http.request(
        {
          host: '127.0.0.1',
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: 'localhost', 'x-forwarded-proto': 'https' },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      request.pipe(forwarded);
    },
  );
  const redirector = http.createServer((request, response) => {
    response.writeHead(301, { location: `https://localhost${request.url ?? '/'}` });
    response.end();
  });
  try {
    await new Promise<void>((resolve, reject) =>
      proxy.once('error', reject).listen(443, '127.0.0.1', resolve),
    );
    await new Promise<void>((resolve, reject) =>
      redirector.once('error', reject).listen(80, '127.0.0.1', resolve),
    );
  } catch (error) {
    await server.stop();
    proxy.close();
    redirector.close();
    return { skipped: `cannot listen on ports 80/443 here (${(error as Error).message})` };
  }
  try {
    // Not spawnSync: the proxy answering the scanner lives in this very process.
    const scan = await new Promise<{ stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [scanner, 'localhost'],
        { cwd: installDir, env: { ...process.env, NODE_EXTRA_CA_CERTS: cert }, timeout: 120_000 },
        (_error, stdout) => resolve({ stdout: String(stdout) }),
      );
    });
    const report = JSON.parse(scan.stdout) as {
      scan?: { grade: string; score: number; testsPassed: number; testsQuantity: number };
      tests?: Record<string, { result: string; pass: boolean; scoreModifier: number }>;
      error?: string;
    };
    if (!report.scan)
      return { isPassed: false, reason: report.error ?? scan.stdout.slice(0, 500), result: report };
    const tests = Object.fromEntries(
      Object.entries(report.tests ?? {}).map(([name, test]) => [
        name,
        `${test.result} (${test.scoreModifier})`,
      ]),
    );
    options.log(
      `Observatory: ${report.scan.grade} (${report.scan.score}), ${report.scan.testsPassed}/${report.scan.testsQuantity} tests passed`,
    );
    return {
      isPassed: report.scan.grade === 'A+',
      reason: report.scan.grade === 'A+' ? undefined : `grade ${report.scan.grade}`,
      result: { grade: report.scan.grade, score: report.scan.score, tests },
    };
  } finally {
    proxy.close();
    redirector.close();
    await server.stop();
  }
}

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localIssuerSettings } from '../auth/local-issuer.ts';
import { createTestApp } from '../test-support/app.ts';
import { listFilesUnder } from '../test-support/files.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { hasWebBuild } from '../test-support/web-build.ts';
import { webDistDir } from './spa.ts';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');

/** Everything a server knows that a browser must never see, as fresh unguessable values. */
function makeSecrets() {
  const token = (label: string) => `${label}-${randomBytes(18).toString('base64url')}`;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    SESSION_SECRET: token('session'),
    GOOGLE_CLIENT_SECRET: token('google'),
    OIDC_CLIENT_SECRET: token('oidc'),
    PGPASSWORD: token('pgpass'),
    DATABASE_URL: `postgres://sticky:${token('dbpass')}@db.internal:5432/sticky`,
    PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Patterns that are secrets whatever their value. */
const secretShapes: Array<[label: string, pattern: RegExp]> = [
  ['a private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['a PostgreSQL URL with a password', /postgres(?:ql)?:\/\/[^:/\s"'`]+:[^@\s"'`]+@/],
  ['the name SESSION_SECRET', /SESSION_SECRET/],
  ['the name GOOGLE_CLIENT_SECRET', /GOOGLE_CLIENT_SECRET/],
  ['the name OIDC_CLIENT_SECRET', /OIDC_CLIENT_SECRET/],
  ['a Google OAuth client secret', /GOCSPX-[\w-]{20,}/],
];

function findLeaks(dir: string, values: string[]): string[] {
  const leaks: string[] = [];
  for (const file of listFilesUnder(dir)) {
    const text = fs.readFileSync(file, 'latin1');
    const name = path.relative(dir, file);
    for (const value of values) {
      // A PEM is checked by its base64 body: minifiers may re-escape the newlines.
      const needle = value.includes('-----BEGIN') ? value.split('\n')[1]! : value;
      if (text.includes(needle)) leaks.push(`${name}: a secret value`);
    }
    for (const [label, pattern] of secretShapes) {
      if (pattern.test(text)) leaks.push(`${name}: ${label}`);
    }
  }
  return leaks.sort();
}

describe('no secret in the built web app', () => {
  let workDir: string;
  let outDir: string;
  const secrets = makeSecrets();
  const saved = new Map<string, string | undefined>();

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-bundle-'));
    outDir = path.join(workDir, 'dist');
    const envDir = path.join(workDir, 'env');
    // Secrets in the environment of the build, and in a .env file Vite would read.
    fs.mkdirSync(envDir);
    fs.writeFileSync(
      path.join(envDir, '.env'),
      Object.entries(secrets)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join('\n'),
    );
    for (const [name, value] of Object.entries(secrets)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    const { build } = await import('vite');
    await build({
      root: webRoot,
      configFile: path.join(webRoot, 'vite.config.ts'),
      envDir,
      mode: 'production',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
  }, 240_000);

  afterAll(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('builds a bundle that holds none of the secrets present at build time', () => {
    expect(fs.existsSync(path.join(outDir, 'index.html'))).toBe(true);
    expect(listFilesUnder(outDir).length).toBeGreaterThan(2);
    expect(findLeaks(outDir, Object.values(secrets))).toEqual([]);
  });

  it('would notice a leak (the check itself works)', () => {
    const leakyDir = path.join(workDir, 'leaky');
    fs.mkdirSync(leakyDir);
    fs.writeFileSync(
      path.join(leakyDir, 'a.js'),
      `const s=${JSON.stringify(secrets.GOOGLE_CLIENT_SECRET)}`,
    );
    fs.writeFileSync(path.join(leakyDir, 'b.js'), JSON.stringify(secrets.PRIVATE_KEY));
    fs.writeFileSync(path.join(leakyDir, 'c.js'), 'fetch("postgres://u:p@h/db")');
    expect(findLeaks(leakyDir, [secrets.GOOGLE_CLIENT_SECRET, secrets.PRIVATE_KEY])).toEqual([
      'a.js: a secret value',
      'b.js: a private key',
      'b.js: a secret value',
      'c.js: a PostgreSQL URL with a password',
    ]);
  });

  it('a server holding the secrets never sends one, in any answer', async () => {
    const apiKey = `apikey-${randomBytes(24).toString('base64url')}`;
    const testApp = await createTestApp(
      {
        SESSION_SECRET: secrets.SESSION_SECRET,
        DATABASE_URL: secrets.DATABASE_URL,
        STICKY_API_KEYS: apiKey,
      },
      { webDistDir: outDir },
    );
    try {
      const { cookie } = await signInAs(testApp);
      // Derived from SESSION_SECRET, so just as secret: the local issuer's client secret.
      const issuerSecret = localIssuerSettings(testApp.config, secrets.SESSION_SECRET).client
        .clientSecret;
      const known = [secrets.SESSION_SECRET, secrets.DATABASE_URL, apiKey, issuerSecret];
      const builtFiles = listFilesUnder(outDir).map(
        (file) => `/${path.relative(outDir, file).split(path.sep).join('/')}`,
      );
      const urls = [
        ...builtFiles,
        '/',
        '/landing',
        '/api/config',
        '/api/auth/me',
        '/api/favorites',
        '/api/docs/openapi.json',
        '/api/docs/',
        '/api/nope',
        '/v1/gifs/trending',
        '/v1/nope',
        '/healthz',
        '/readyz',
        '/oidc/.well-known/openid-configuration',
        '/oidc/jwks',
        '/api/auth/googleAuth',
      ];
      expect(builtFiles.length).toBeGreaterThan(2);
      const leaks: string[] = [];
      for (const url of urls) {
        for (const headers of [{ accept: 'text/html' }, { cookie }]) {
          const response = await testApp.app.inject({ url, headers });
          const seen = `${JSON.stringify(response.headers)}\n${response.body}`;
          for (const value of known) {
            if (seen.includes(value)) leaks.push(`${url}: a secret value`);
          }
          for (const [label, pattern] of secretShapes) {
            if (pattern.test(seen)) leaks.push(`${url}: ${label}`);
          }
        }
      }
      expect(leaks).toEqual([]);
    } finally {
      await testApp.close();
    }
  });

  it('the served build (apps/web/dist) holds nothing shaped like a secret', (context) => {
    if (!hasWebBuild(context)) return;
    // Built elsewhere, so only the shapes of secrets can be looked for here; the values are
    // proved absent from a build made with them above.
    expect(findLeaks(webDistDir, [])).toEqual([]);
  });
});

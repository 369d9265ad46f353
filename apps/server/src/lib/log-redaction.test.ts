import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.ts';
import { createLogger } from '../server.ts';
import { reachCallback, startListeningApp } from '../test-support/oidc.ts';
import type { ListeningTestApp } from '../test-support/oidc.ts';
import { TestBrowser } from '../test-support/browser.ts';
import { maskEmails, redactUrl } from './log-redaction.ts';

const apiKey = 'a-secret-app-key-that-is-long-enough-123';

describe('what the logs never hold', () => {
  let app: ListeningTestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger(loadConfig({ LOG_LEVEL: 'info' }), sink);
    app = await startListeningApp(
      { LOG_LEVEL: 'info', STICKY_API_KEYS: apiKey, ALLOWED_EMAILS: 'friend@example.com' },
      { logger, hasOwnIssuer: true },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it("keeps api keys, Tenor's key and OAuth's code and state out of request logs", async () => {
    await fetch(`${app.baseUrl}/v1/gifs/trending?api_key=${apiKey}&limit=1`);
    await fetch(`${app.baseUrl}/v2/featured?key=${apiKey}&limit=1`);
    await fetch(`${app.baseUrl}/api/auth/callback?code=oauth-code-123&state=oauth-state-456`);
    const logged = lines.join('\n');
    expect(logged).toContain('/v1/gifs/trending?api_key=[redacted]&limit=1');
    expect(logged).toContain('/v2/featured?key=[redacted]&limit=1');
    expect(logged).toContain('/api/auth/callback?code=[redacted]&state=[redacted]');
    for (const secret of [apiKey, 'oauth-code-123', 'oauth-state-456']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('logs a refused sign-in without the whole email address', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await reachCallback(browser, `${app.baseUrl}/api/auth/googleAuth`, {
      name: 'Stranger',
      email: 'stranger.danger@example.com',
    });
    await browser.request(callbackUrl);
    const refused = lines.filter(
      (line) => line.includes('sign-in refused') && line.includes('not_allowed'),
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('s***@example.com');
    expect(lines.join('\n')).not.toContain('stranger.danger');
  });

  it('redacts and masks what it is given, and leaves the rest', () => {
    expect(redactUrl('/a?Key=1&keyword=2&%61pi_key=3&x')).toBe(
      '/a?Key=[redacted]&keyword=2&%61pi_key=[redacted]&x',
    );
    expect(redactUrl('/plain/path')).toBe('/plain/path');
    expect(maskEmails('a@b.co and jane.doe@example.org: no')).toBe(
      'a***@b.co and j***@example.org: no',
    );
  });
});

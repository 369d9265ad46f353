import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/sticky');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const oidc = {
  OIDC_ISSUER: 'https://issuer.example',
  OIDC_CLIENT_ID: 'sticky',
  OIDC_CLIENT_SECRET: 'secret',
};

describe('loadConfig', () => {
  it('has defaults that work on a laptop', () => {
    const config = loadConfig({}, '/srv/sticky');
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/srv/sticky/data');
    expect(config.mediaDir).toBe('/srv/sticky/data/media');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.signIn.kind).toBe('local');
    expect(config.giphy).toBeUndefined();
  });

  it('says exactly what is wrong with PORT', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual([
      'PORT must be a number from 0 (any free port) to 65535, got "abc"',
    ]);
    expect(problemsOf({ PORT: '70000' })).toEqual([
      'PORT must be a number from 0 (any free port) to 65535, got "70000"',
    ]);
  });

  it('makes uploads public unless UPLOAD_VISIBILITY says otherwise, and names a wrong value', () => {
    expect(loadConfig({}, '/srv/sticky').uploads.visibility).toBe('public');
    expect(loadConfig({ UPLOAD_VISIBILITY: 'Unlisted' }, '/srv/sticky').uploads.visibility).toBe(
      'unlisted',
    );
    expect(problemsOf({ UPLOAD_VISIBILITY: 'friends' })).toEqual([
      'UPLOAD_VISIBILITY must be public, unlisted or private, got "friends"',
    ]);
  });

  it('takes PORT=0 (a free port the system picks) with the PUBLIC_URL it needs', () => {
    expect(problemsOf({ PORT: '0' })).toEqual([
      'PORT=0 (any free port) needs PUBLIC_URL: the URL people reach the server at',
    ]);
    const config = loadConfig(
      { PORT: '0', PUBLIC_URL: 'https://sticky.example', LOCAL_SIGN_IN: '1' },
      '/srv/sticky',
    );
    expect(config.port).toBe(0);
    expect(config.publicUrl).toBe('https://sticky.example');
  });

  it('takes METRICS_TOKEN of 32+ characters without spaces, and says so in one line otherwise', () => {
    const token = 'a-metrics-token-of-enough-length-0123';
    expect(loadConfig({ METRICS_TOKEN: token }, '/srv/sticky').metricsToken).toBe(token);
    expect(loadConfig({}, '/srv/sticky').metricsToken).toBeUndefined();
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual([
      'METRICS_TOKEN must be at least 32 characters without spaces, got 5 characters',
    ]);
    expect(problemsOf({ METRICS_TOKEN: `${token} with spaces` })).toHaveLength(1);
  });

  it('reports every bad value at once, one line each', () => {
    const problems = problemsOf({
      PORT: '-1',
      PUBLIC_URL: 'ftp://example.com',
      DATABASE_URL: 'mysql://user:secret@host/db',
      SESSION_SECRET: 'short',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toHaveLength(5);
    expect(problems).toContain('PUBLIC_URL must be an http(s) URL, got "ftp://example.com"');
    expect(problems.join('\n')).not.toContain('secret@');
    expect(problems).toContain('SESSION_SECRET must be at least 32 characters, got 5');
  });

  it('takes LOG_FORMAT json or pretty, and says so for anything else', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(problemsOf({ LOG_FORMAT: 'xml' })).toEqual([
      'LOG_FORMAT must be json or pretty (unset: pretty on a terminal, json otherwise), got "xml"',
    ]);
  });

  it('refuses production without a sign-in provider or session secret', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems.some((line) => line.startsWith('No sign-in provider is configured'))).toBe(
      true,
    );
    expect(problems).toContain(
      'SESSION_SECRET must be set in production (at least 32 random characters)',
    );
  });

  it('takes DATABASE_READ_URL only beside DATABASE_URL, and says so in one line', () => {
    const primary = 'postgres://sticky:secret@db-primary:5432/sticky';
    const replica = 'postgres://sticky:secret@db-replica:5432/sticky';
    const config = loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: replica }, '/srv/sticky');
    expect(config.databaseReadUrl).toBe(replica);
    expect(loadConfig({}, '/srv/sticky').databaseReadUrl).toBeUndefined();
    expect(problemsOf({ DATABASE_READ_URL: replica })).toEqual([
      'DATABASE_READ_URL needs DATABASE_URL: the read replica is a streaming replica of that PostgreSQL (unset DATABASE_READ_URL to use the embedded one)',
    ]);
    expect(
      problemsOf({ DATABASE_URL: primary, DATABASE_READ_URL: 'mysql://sticky:secret@replica/db' }),
    ).toEqual([
      'DATABASE_READ_URL must start with postgres:// or postgresql://, got "mysql://sticky:***@replica/db"',
    ]);
  });

  it('requires Google credentials in pairs', () => {
    expect(problemsOf({ GOOGLE_CLIENT_ID: 'id' })).toEqual([
      'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together, got only one',
    ]);
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' });
    expect(config.signIn).toMatchObject({ kind: 'google', issuer: 'https://accounts.google.com' });
  });

  it('offers the local sign-in only on this machine, or when asked, and never beside an allow-list', () => {
    expect(loadConfig({}).signIn.kind).toBe('local');
    expect(loadConfig({ HOST: '::1', PUBLIC_URL: 'http://127.0.0.1:3000' }).signIn.kind).toBe(
      'local',
    );
    expect(problemsOf({ HOST: '0.0.0.0' })[0]).toMatch(
      /The local sign-in \(anyone can sign in as anyone\) is only offered on this machine/,
    );
    expect(problemsOf({ PUBLIC_URL: 'https://gifs.example' })[0]).toMatch(/LOCAL_SIGN_IN=1/);
    expect(loadConfig({ HOST: '0.0.0.0', LOCAL_SIGN_IN: '1' }).signIn.kind).toBe('local');
    expect(problemsOf({ ALLOWED_EMAILS: 'a@example.com', LOCAL_SIGN_IN: '1' })).toEqual([
      'ALLOWED_EMAILS and ALLOWED_EMAIL_DOMAINS need a real sign-in provider (GOOGLE_CLIENT_* or OIDC_*): the local sign-in lets anyone claim any email',
    ]);
    expect(problemsOf({ LOCAL_SIGN_IN: '0' })[0]).toMatch(/leaves no way to sign in/);
    expect(loadConfig({ ADMIN_EMAILS: 'a@example.com' }).admins.emails).toEqual(['a@example.com']);
    expect(
      problemsOf({ HOST: '0.0.0.0', LOCAL_SIGN_IN: '1', ADMIN_EMAILS: 'a@example.com' }),
    ).toEqual([
      'ADMIN_EMAILS and OIDC_ADMIN_GROUPS need a real sign-in provider (GOOGLE_CLIENT_* or OIDC_*) when HOST or PUBLIC_URL is not loopback (got HOST "0.0.0.0", PUBLIC_URL "http://localhost"): the local sign-in lets anyone claim an admin\'s email',
    ]);
    expect(
      problemsOf({
        PUBLIC_URL: 'https://gifs.example',
        LOCAL_SIGN_IN: '1',
        OIDC_ADMIN_GROUPS: 'admins',
      })[0],
    ).toMatch(/^ADMIN_EMAILS and OIDC_ADMIN_GROUPS need a real sign-in provider/);
    expect(
      loadConfig({ HOST: '0.0.0.0', ADMIN_EMAILS: 'a@example.com', ...oidc }).signIn.kind,
    ).toBe('oidc');
    expect(problemsOf({ LOCAL_SIGN_IN: 'maybe' })).toEqual([
      'LOCAL_SIGN_IN must be 1 or 0, got "maybe"',
    ]);
    expect(loadConfig({}).publicLinks).toBe(false);
    expect(loadConfig({ PUBLIC_LINKS: 'true' }).publicLinks).toBe(true);
    expect(problemsOf({ PUBLIC_LINKS: 'everyone' })).toEqual([
      'PUBLIC_LINKS must be true or false, got "everyone"',
    ]);
    expect(loadConfig({ ALLOWED_EMAILS: 'a@example.com', ...oidc }).signIn.kind).toBe('oidc');
  });

  it('takes API keys of 32 characters or more, and says which one is too short', () => {
    const long = 'k'.repeat(32);
    expect(loadConfig({ STICKY_API_KEYS: `${long}, ${long}x` }).apiKeys).toEqual([
      long,
      `${long}x`,
    ]);
    expect(problemsOf({ STICKY_API_KEYS: `${long},short-key` })).toEqual([
      'STICKY_API_KEYS: key 2 has 9 characters, at least 32 are needed (e.g. openssl rand -hex 24)',
    ]);
  });

  it('takes an analytics integrity hash only in SRI form, and only with its script', () => {
    const hash = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';
    const url = 'https://stats.example.com/a.js';
    expect(
      loadConfig({ ANALYTICS_SCRIPT_URL: url, ANALYTICS_SCRIPT_INTEGRITY: hash })
        .analyticsScriptIntegrity,
    ).toBe(hash);
    expect(
      problemsOf({ ANALYTICS_SCRIPT_URL: url, ANALYTICS_SCRIPT_INTEGRITY: 'md5-abc' })[0],
    ).toMatch(/ANALYTICS_SCRIPT_INTEGRITY must be a Subresource Integrity hash/);
    expect(problemsOf({ ANALYTICS_SCRIPT_INTEGRITY: hash })).toEqual([
      'ANALYTICS_SCRIPT_INTEGRITY needs ANALYTICS_SCRIPT_URL: the script it vouches for',
    ]);
  });

  it("gives one address a share of an app key's /v1 budget, never more than the whole", () => {
    expect(loadConfig({}).apiRateLimitPerAddressPerMinute).toBe(300);
    expect(
      loadConfig({ API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '50' }).apiRateLimitPerAddressPerMinute,
    ).toBe(50);
    expect(loadConfig({ API_RATE_LIMIT_PER_MINUTE: '100' }).apiRateLimitPerAddressPerMinute).toBe(
      100,
    );
    expect(problemsOf({ API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0' })).toEqual([
      `API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got "0"`,
    ]);
  });

  it('keeps the embedded PostgreSQL of root where the operator says, relative to the folder it starts in', () => {
    expect(loadConfig({}, '/srv/sticky').postgresRootDir).toBeUndefined();
    expect(loadConfig({ POSTGRES_ROOT_DIR: 'pg-home' }, '/srv/sticky').postgresRootDir).toBe(
      '/srv/sticky/pg-home',
    );
    expect(loadConfig({ POSTGRES_ROOT_DIR: '/opt/sticky-pg/' }).postgresRootDir).toBe(
      '/opt/sticky-pg',
    );
  });

  it('parses allow-lists and GIPHY mode', () => {
    const config = loadConfig({
      ALLOWED_EMAILS: ' Ann@Example.com , bob@example.com',
      ALLOWED_EMAIL_DOMAINS: '@corp.example',
      GIPHY_API_KEY: 'public-key',
      PUBLIC_URL: 'https://sticky.example.com/',
      ...oidc,
    });
    expect(config.allowedEmails).toEqual(['ann@example.com', 'bob@example.com']);
    expect(config.allowedEmailDomains).toEqual(['corp.example']);
    expect(config.giphy).toEqual({ apiKey: 'public-key', apiUrl: 'https://api.giphy.com/v1' });
    expect(config.isHttps).toBe(true);
    expect(config.publicUrl).toBe('https://sticky.example.com');
  });

  it('turns Telegram on with a BotFather token, and says what is wrong with a bad one without echoing it', () => {
    const token = '123456789:AAEhBOweik6ad6PsWZRcXUgPaGFhqOClv_k';
    expect(loadConfig({}).integrations).toMatchObject({ rating: 'pg-13', telegram: undefined });
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: '' }).integrations.telegram).toBeUndefined();
    expect(
      loadConfig({ TELEGRAM_BOT_TOKEN: ` ${token} `, INTEGRATIONS_RATING: 'G' }),
    ).toMatchObject({
      integrations: {
        rating: 'g',
        telegram: {
          botToken: token,
          apiBase: 'https://api.telegram.org',
          queriesPerUserPerMinute: 60,
        },
      },
    });
    expect(problemsOf({ TELEGRAM_BOT_TOKEN: '   ' })).toEqual([
      'TELEGRAM_BOT_TOKEN is blank: set the token @BotFather gave (123456789:AA…), or unset it to turn Telegram off',
    ]);
    const malformed = problemsOf({ TELEGRAM_BOT_TOKEN: 'not-a-token-secret-words' });
    expect(malformed).toEqual([
      'TELEGRAM_BOT_TOKEN must be the token @BotFather gave, like 123456789:AAE… (the bot id, a colon, then 35 letters, digits, _ or -), got 24 characters that are not one',
    ]);
    expect(problemsOf({ TELEGRAM_BOT_TOKEN: `${token}/getMe?` })).toHaveLength(1);
    expect(problemsOf({ TELEGRAM_API_BASE: 'ftp://x', INTEGRATIONS_RATING: 'nc-17' })).toEqual([
      'INTEGRATIONS_RATING must be g, pg, pg-13 or r, got "nc-17"',
      'TELEGRAM_API_BASE must be an http(s) URL, got "ftp://x"',
    ]);
  });

  it('reads the chat platforms and says what is wrong with their settings', () => {
    const config = loadConfig({}, '/srv/sticky');
    expect(config.integrations).toMatchObject({
      rating: 'pg-13',
      slack: undefined,
      mattermost: undefined,
      discord: undefined,
    });
    const slack = loadConfig({ SLACK_SIGNING_SECRET: 'abc' }, '/srv/sticky').integrations.slack;
    expect(slack).toEqual({ signingSecret: 'abc', responseHosts: ['hooks.slack.com'] });
    expect(problemsOf({ INTEGRATIONS_RATING: 'nc-17' })).toEqual([
      'INTEGRATIONS_RATING must be g, pg, pg-13 or r, got "nc-17"',
    ]);
    expect(problemsOf({ SLACK_RESPONSE_HOSTS: 'https://hooks.slack.com' })).toEqual([
      'SLACK_RESPONSE_HOSTS must be host names separated by commas, without scheme or port (e.g. hooks.slack.com), got "https://hooks.slack.com"',
    ]);
    expect(problemsOf({ DISCORD_PUBLIC_KEY: 'xyz' })).toEqual([
      "DISCORD_PUBLIC_KEY must be the application's public key: 64 hex digits, got 3 characters",
    ]);
    expect(problemsOf({ DISCORD_APPLICATION_ID: 'my-app' })).toEqual([
      `DISCORD_APPLICATION_ID must be the application's id (digits), got "my-app"`,
    ]);
    expect(problemsOf({ MATTERMOST_COMMAND_TOKENS: 'abc' })).toEqual([
      'MATTERMOST_COMMAND_TOKENS and MATTERMOST_URL must be set together: the command tokens to accept and the server whose response_url Sticky may call',
    ]);
    expect(problemsOf({ MATTERMOST_URL: 'chat.example.com' })).toEqual([
      'MATTERMOST_URL must be an http(s) URL, got "chat.example.com"',
    ]);
    expect(problemsOf({ INTEGRATIONS_PER_USER_PER_MINUTE: '0' })).toEqual([
      'INTEGRATIONS_PER_USER_PER_MINUTE must be a whole number from 1 to 100000, got "0"',
    ]);
  });
});

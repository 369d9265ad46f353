import path from 'node:path';
import { z } from 'zod';
import { itemVisibilitySchema, ratingSchema } from '@sticky/contracts';
import {
  booleanFlag,
  csv,
  httpUrl,
  isAddressOrCidr,
  isLoopbackHost,
  oneOf,
  optionalText,
  positiveInt,
  postgresUrl,
  wholeNumber,
} from './env-values.ts';

/*
 * Every environment variable the server reads. Each one is validated here, at start-up, so
 * a typo fails loudly with one line per bad value instead of surfacing later as a crash. By
 * section: each section's schema validates its variables, and its `read…` function maps them to
 * its part of the configuration, whose type is inferred (`AppConfig`).
 */

/** The HTTP server: mode, address, proxies, the public URL and host names, logs. */
const serverEnvSchema = z.object({
  NODE_ENV: oneOf('NODE_ENV', ['development', 'production', 'test'], {
    fallback: 'development',
    expected: 'development, production or test',
  }),
  PORT: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return 3000;
      const port = Number(value);
      if (!/^\d+$/.test(value.trim()) || port > 65535) {
        ctx.addIssue({
          code: 'custom',
          message: `PORT must be a number from 0 (any free port) to 65535, got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return port;
    }),
  HOST: optionalText,
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx): false | number | string[] => {
      const text = value?.trim() ?? '';
      if (text === '' || ['0', 'false', 'off', 'no'].includes(text.toLowerCase())) return false;
      if (/^\d+$/.test(text)) return Number(text);
      const entries = text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const bad = entries.find((entry) => !isAddressOrCidr(entry));
      if (bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `TRUST_PROXY must be a number of proxy hops, or proxy addresses or CIDRs separated by commas (e.g. 10.0.0.0/8,127.0.0.1), got ${JSON.stringify(bad)}`,
        });
        return z.NEVER;
      }
      return entries;
    }),
  PUBLIC_URL: httpUrl('PUBLIC_URL'),
  ALLOWED_HOSTS: csv.superRefine((hosts, ctx) => {
    const bad = hosts.find((host) => !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(host));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `ALLOWED_HOSTS must be host names separated by commas, without scheme or port (e.g. gifs.example.com,gifs.internal), got ${JSON.stringify(bad)}`,
      });
    }
  }),
  LOG_LEVEL: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    fallback: 'info',
    expected: 'one of fatal, error, warn, info, debug, trace, silent',
  }),
  LOG_FORMAT: oneOf('LOG_FORMAT', ['json', 'pretty'], {
    fallback: undefined,
    expected: 'json or pretty (unset: pretty on a terminal, json otherwise)',
  }),
});

function readServerConfig(e: z.output<typeof serverEnvSchema>) {
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    /** Which proxies' X-Forwarded-For to believe: none, a hop count, or their addresses. */
    trustProxy: e.TRUST_PROXY,
    publicUrl,
    /**
     * The host names requests may name: PUBLIC_URL's and ALLOWED_HOSTS (lower case, no port).
     * Others are sent to PUBLIC_URL or refused (docs/security.md, "Hosts").
     */
    allowedHosts: [
      ...new Set([new URL(publicUrl).hostname, ...e.ALLOWED_HOSTS].map((h) => h.toLowerCase())),
    ],
    isHttps: publicUrl.startsWith('https:'),
    logLevel: e.LOG_LEVEL,
    /** Unset: readable lines on a terminal, JSON otherwise (server.ts, `resolveLogFormat`). */
    logFormat: e.LOG_FORMAT,
  };
}

/** Where data lives: DATA_DIR, the embedded PostgreSQL's folder or an external database. */
const databaseEnvSchema = z.object({
  DATA_DIR: optionalText,
  POSTGRES_ROOT_DIR: optionalText,
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  DATABASE_READ_URL: postgresUrl('DATABASE_READ_URL'),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt('DATABASE_STATEMENT_TIMEOUT_MS', 15_000),
});

function readDatabaseConfig(e: z.output<typeof databaseEnvSchema>, cwd: string) {
  const dataDir = path.resolve(cwd, e.DATA_DIR ?? 'data');
  return {
    dataDir,
    mediaDir: path.join(dataDir, 'media'),
    /**
     * Run as root: where the embedded PostgreSQL's user keeps its cluster and binaries when it
     * cannot reach DATA_DIR (db/embedded.ts; /var/lib/sticky when unset).
     */
    postgresRootDir: e.POSTGRES_ROOT_DIR ? path.resolve(cwd, e.POSTGRES_ROOT_DIR) : undefined,
    databaseUrl: e.DATABASE_URL,
    /** A streaming replica of DATABASE_URL for catalog reads (docs/scaling.md, "A read replica"). */
    databaseReadUrl: e.DATABASE_READ_URL,
    /** statement_timeout of the server's database connections. */
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}

/** Who may come in: sessions, sign-in, allow-lists, admins, app keys and their rate limits. */
const accessEnvSchema = z.object({
  SESSION_SECRET: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      if (value.length < 32) {
        ctx.addIssue({
          code: 'custom',
          message: `SESSION_SECRET must be at least 32 characters, got ${value.length}`,
        });
        return z.NEVER;
      }
      return value;
    }),
  SESSION_MAX_AGE_DAYS: positiveInt('SESSION_MAX_AGE_DAYS', 90, 3650),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      if (value.length < 32 || /\s/.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `METRICS_TOKEN must be at least 32 characters without spaces, got ${value.length} characters`,
        });
        return z.NEVER;
      }
      return value;
    }),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  OIDC_ISSUER: httpUrl('OIDC_ISSUER'),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_DISPLAY_NAME: optionalText,
  LOCAL_SIGN_IN: booleanFlag('LOCAL_SIGN_IN', '1 or 0'),
  ALLOWED_EMAILS: csv,
  ALLOWED_EMAIL_DOMAINS: csv,
  PUBLIC_PREVIEWS: booleanFlag('PUBLIC_PREVIEWS', 'true or false'),
  PUBLIC_LINKS: booleanFlag('PUBLIC_LINKS', 'true or false'),
  ADMIN_EMAILS: csv,
  OIDC_ADMIN_GROUPS: csv,
  OIDC_GROUPS_CLAIM: optionalText,
  STICKY_API_KEYS: csv.superRefine((keys, ctx) => {
    // A key is all another app needs: short ones can be guessed (docs/security.md).
    keys.forEach((key, index) => {
      if (key.length < 32) {
        ctx.addIssue({
          code: 'custom',
          message: `STICKY_API_KEYS: key ${index + 1} has ${key.length} characters, at least 32 are needed (e.g. openssl rand -hex 24)`,
        });
      }
    });
  }),
  API_RATE_LIMIT_PER_MINUTE: positiveInt('API_RATE_LIMIT_PER_MINUTE', 1200),
  API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: positiveInt('API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE', 300),
});

function readAccessConfig(e: z.output<typeof accessEnvSchema>) {
  const signIn: SignInProvider = e.GOOGLE_CLIENT_ID
    ? {
        kind: 'google',
        issuer: 'https://accounts.google.com',
        clientId: e.GOOGLE_CLIENT_ID,
        clientSecret: e.GOOGLE_CLIENT_SECRET!,
        displayName: 'Google',
      }
    : e.OIDC_ISSUER
      ? {
          kind: 'oidc',
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID!,
          clientSecret: e.OIDC_CLIENT_SECRET!,
          displayName: e.OIDC_DISPLAY_NAME ?? 'single sign-on',
        }
      : { kind: 'local', displayName: 'local sign-in' };
  return {
    sessionSecret: e.SESSION_SECRET,
    /** A session ends this long after sign-in, however often it is used. */
    sessionMaxAgeMs: e.SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
    /** The bearer token that lets a scraper read /metrics from anywhere (docs/operations.md). */
    metricsToken: e.METRICS_TOKEN,
    signIn,
    allowedEmails: e.ALLOWED_EMAILS.map((email) => email.toLowerCase()),
    allowedEmailDomains: e.ALLOWED_EMAIL_DOMAINS.map((domain) =>
      domain.toLowerCase().replace(/^@/, ''),
    ),
    /**
     * Link previews (OpenGraph tags, oEmbed) for visitors who are not signed in: on, unless an
     * allow-list makes the instance private and PUBLIC_PREVIEWS does not say otherwise.
     */
    publicPreviews:
      e.PUBLIC_PREVIEWS ?? (e.ALLOWED_EMAILS.length === 0 && e.ALLOWED_EMAIL_DOMAINS.length === 0),
    /**
     * Whether a signed-out person who opens a shared link of a public or unlisted item sees it
     * on a small page (docs/uploads.md, "Links"); off, they meet the landing page (the spec).
     */
    publicLinks: e.PUBLIC_LINKS ?? false,
    admins: {
      /** Lower-cased. */
      emails: e.ADMIN_EMAILS.map((email) => email.toLowerCase()),
      /** OIDC groups whose members are admins, read from the claim `groupsClaim`. */
      oidcGroups: e.OIDC_ADMIN_GROUPS,
      groupsClaim: e.OIDC_GROUPS_CLAIM ?? 'groups',
    },
    apiKeys: e.STICKY_API_KEYS,
    /** Requests to /v1 and /v2 per minute per signed-in person, app key, or address. */
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    /**
     * Of an app key's budget, what one address may use (docs/security.md, "Rate limits and
     * quotas"): never more than the whole.
     */
    apiRateLimitPerAddressPerMinute: Math.min(
      e.API_RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
      e.API_RATE_LIMIT_PER_MINUTE,
    ),
  };
}

/**
 * The catalog and what the web app is told: GIPHY mode, analytics, the starter catalog, and
 * the catalog's limits (docs/catalog.md; docs/security.md, "Rate limits and quotas").
 */
const contentEnvSchema = z.object({
  GIPHY_API_KEY: optionalText,
  GIPHY_API_URL: httpUrl('GIPHY_API_URL'),
  ANALYTICS_SCRIPT_URL: httpUrl('ANALYTICS_SCRIPT_URL'),
  ANALYTICS_SCRIPT_INTEGRITY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? '';
      if (text === '') return undefined;
      // Subresource Integrity: one or more sha256/384/512 hashes, base64, space-separated.
      if (
        !/^(sha(256|384|512)-[A-Za-z0-9+/]+={0,2})( sha(256|384|512)-[A-Za-z0-9+/]+={0,2})*$/.test(
          text,
        )
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `ANALYTICS_SCRIPT_INTEGRITY must be a Subresource Integrity hash like sha384-<base64>, got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return text;
    }),
  SEED_STARTER_CATALOG: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return true;
      if (['1', 'true', 'yes'].includes(value.trim().toLowerCase())) return true;
      if (['0', 'false', 'no'].includes(value.trim().toLowerCase())) return false;
      ctx.addIssue({
        code: 'custom',
        message: `SEED_STARTER_CATALOG must be true or false, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }),
  TRENDING_MAX_AGE_SECONDS: wholeNumber('TRENDING_MAX_AGE_SECONDS', 60),
  ITEM_DOCUMENTS_PER_TYPE: wholeNumber('ITEM_DOCUMENTS_PER_TYPE', 50_000),
  SEARCH_RANK_CANDIDATES: positiveInt('SEARCH_RANK_CANDIDATES', 500, 100_000),
  TEXT_RENDERS_PER_DAY: positiveInt('TEXT_RENDERS_PER_DAY', 200),
  TEXT_RENDER_KEEP_DAYS: positiveInt('TEXT_RENDER_KEEP_DAYS', 30),
  MIN_FREE_DISK_MB: wholeNumber('MIN_FREE_DISK_MB', 512),
});

function readContentConfig(e: z.output<typeof contentEnvSchema>) {
  return {
    giphy: e.GIPHY_API_KEY
      ? { apiKey: e.GIPHY_API_KEY, apiUrl: e.GIPHY_API_URL ?? 'https://api.giphy.com/v1' }
      : undefined,
    analyticsScriptUrl: e.ANALYTICS_SCRIPT_URL,
    /** The script's Subresource Integrity: the browser runs it only if it matches. */
    analyticsScriptIntegrity: e.ANALYTICS_SCRIPT_INTEGRITY,
    seedStarterCatalog: e.SEED_STARTER_CATALOG,
    /** How long a trending page outlives a move of popularity (0: follows at once). */
    trendingMaxAgeMs: e.TRENDING_MAX_AGE_SECONDS * 1000,
    /**
     * Items' JSON kept in the database for the most popular this many of each type (0: none;
     * docs/catalog.md, "Item documents").
     */
    itemDocumentsPerType: e.ITEM_DOCUMENTS_PER_TYPE,
    /** How a search ranks (docs/catalog.md, "Search"). */
    search: {
      /** Matches ranked by relevance together, most popular first: the bound of a search's work. */
      rankCandidates: e.SEARCH_RANK_CANDIDATES,
    },
    textRendering: {
      perPersonPerDay: e.TEXT_RENDERS_PER_DAY,
      keepDays: e.TEXT_RENDER_KEEP_DAYS,
    },
    /** Below this much free space in DATA_DIR nothing new is rendered. */
    minFreeDiskBytes: e.MIN_FREE_DISK_MB * 1024 * 1024,
  };
}

/** Media coming in: the import's limits, and uploads (docs/uploads.md). */
const mediaEnvSchema = z.object({
  IMPORT_MAX_BYTES: positiveInt('IMPORT_MAX_BYTES', 50 * 1024 * 1024),
  IMPORT_MAX_PIXELS: positiveInt('IMPORT_MAX_PIXELS', 4096 * 4096),
  IMPORT_MAX_FRAMES: positiveInt('IMPORT_MAX_FRAMES', 1000),
  IMPORT_MAX_DURATION_MS: positiveInt('IMPORT_MAX_DURATION_MS', 120_000),
  IMPORT_WORKERS: positiveInt('IMPORT_WORKERS', 2, 64),
  UPLOADS: oneOf('UPLOADS', ['everyone', 'admins', 'off'], {
    fallback: 'everyone',
    expected: 'everyone, admins or off',
    isCaseInsensitive: true,
  }),
  UPLOAD_MAX_BYTES: positiveInt('UPLOAD_MAX_BYTES', 20 * 1024 * 1024),
  UPLOAD_MAX_FILES: positiveInt('UPLOAD_MAX_FILES', 20, 100),
  UPLOAD_BYTES_PER_DAY: positiveInt('UPLOAD_BYTES_PER_DAY', 500 * 1024 * 1024),
  UPLOAD_ITEMS_PER_DAY: positiveInt('UPLOAD_ITEMS_PER_DAY', 200),
  // The default and what it lets through: docs/uploads.md, "Receiving".
  UPLOAD_MEGAPIXELS_PER_DAY: positiveInt('UPLOAD_MEGAPIXELS_PER_DAY', 10_000),
  UPLOAD_WORKERS: positiveInt('UPLOAD_WORKERS', 2, 64),
  UPLOAD_VISIBILITY: oneOf('UPLOAD_VISIBILITY', itemVisibilitySchema.options, {
    fallback: 'public',
    expected: 'public, unlisted or private',
    isCaseInsensitive: true,
  }),
});

function readMediaConfig(e: z.output<typeof mediaEnvSchema>) {
  return {
    importLimits: {
      maxBytes: e.IMPORT_MAX_BYTES,
      maxPixels: e.IMPORT_MAX_PIXELS,
      maxFrames: e.IMPORT_MAX_FRAMES,
      maxDurationMs: e.IMPORT_MAX_DURATION_MS,
      workers: e.IMPORT_WORKERS,
    },
    uploads: {
      /** Who may upload: everyone signed in, admins only, or nobody. */
      mode: e.UPLOADS,
      maxFileBytes: Math.min(e.UPLOAD_MAX_BYTES, e.IMPORT_MAX_BYTES),
      maxFilesPerRequest: e.UPLOAD_MAX_FILES,
      bytesPerDay: e.UPLOAD_BYTES_PER_DAY,
      itemsPerDay: e.UPLOAD_ITEMS_PER_DAY,
      /** Decoded megapixels (width × height × frames / 1e6) a person's uploads may cost a day. */
      megapixelsPerDay: e.UPLOAD_MEGAPIXELS_PER_DAY,
      /** Upload jobs one process runs at once. */
      workers: e.UPLOAD_WORKERS,
      /** What an upload that names none gets (docs/uploads.md, "Visibility"). */
      visibility: e.UPLOAD_VISIBILITY,
    },
  };
}

/** Where media files live and where their URLs point (docs/scaling.md, "Media storage"). */
const storageEnvSchema = z.object({
  STORAGE: oneOf('STORAGE', ['local', 's3'], {
    fallback: 'local',
    expected: 'local or s3',
    isCaseInsensitive: true,
  }),
  S3_ENDPOINT: httpUrl('S3_ENDPOINT'),
  S3_REGION: optionalText,
  S3_BUCKET: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const bucket = value?.trim() || undefined;
      if (bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
        ctx.addIssue({
          code: 'custom',
          message: `S3_BUCKET must be a bucket name (3–63 lower-case letters, digits, dots and dashes), got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return bucket;
    }),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFlag('S3_FORCE_PATH_STYLE', '1 or 0'),
  MEDIA_PUBLIC_URL: httpUrl('MEDIA_PUBLIC_URL'),
});

function readStorageConfig(e: z.output<typeof storageEnvSchema>) {
  return {
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3' as const,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION ?? 'us-east-1',
            bucket: e.S3_BUCKET!,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
            // MinIO, Garage and s3rver answer on the endpoint's path; AWS and R2 on a host.
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
          }
        : { kind: 'local' as const },
    /** Where media URLs point: a CDN or public bucket; unset, this server's /media. */
    mediaPublicUrl: e.MEDIA_PUBLIC_URL?.replace(/\/+$/, ''),
  };
}

/**
 * Chat platforms (docs/integrations.md): each is off until its secret is set. The rating
 * ceiling and the limits apply to every platform.
 */
const integrationsEnvSchema = z.object({
  INTEGRATIONS_RATING: oneOf('INTEGRATIONS_RATING', ratingSchema.options, {
    fallback: 'pg-13',
    expected: 'g, pg, pg-13 or r',
    isCaseInsensitive: true,
  }),
  INTEGRATIONS_PER_WORKSPACE_PER_MINUTE: positiveInt(
    'INTEGRATIONS_PER_WORKSPACE_PER_MINUTE',
    300,
    1_000_000,
  ),
  INTEGRATIONS_PER_USER_PER_MINUTE: positiveInt('INTEGRATIONS_PER_USER_PER_MINUTE', 30, 100_000),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_RESPONSE_HOSTS: csv.superRefine((hosts, ctx) => {
    const bad = hosts.find((host) => !/^[a-z0-9.-]+$/i.test(host));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `SLACK_RESPONSE_HOSTS must be host names separated by commas, without scheme or port (e.g. hooks.slack.com), got ${JSON.stringify(bad)}`,
      });
    }
  }),
  MATTERMOST_COMMAND_TOKENS: csv,
  MATTERMOST_URL: httpUrl('MATTERMOST_URL'),
  DISCORD_PUBLIC_KEY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? '';
      if (text === '') return undefined;
      if (!/^[0-9a-f]{64}$/i.test(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `DISCORD_PUBLIC_KEY must be the application's public key: 64 hex digits, got ${text.length} characters`,
        });
        return z.NEVER;
      }
      return text.toLowerCase();
    }),
  DISCORD_APPLICATION_ID: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = value?.trim() ?? '';
      if (text === '') return undefined;
      if (!/^\d{1,20}$/.test(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `DISCORD_APPLICATION_ID must be the application's id (digits), got ${JSON.stringify(value)}`,
        });
        return z.NEVER;
      }
      return text;
    }),
  DISCORD_BOT_TOKEN: optionalText,
  DISCORD_API_BASE: httpUrl('DISCORD_API_BASE'),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .optional()
    .transform((value, ctx) => {
      // Unset or '' (a compose file's unset variable): Telegram is off, as every setting here.
      if (value === undefined || value === '') return undefined;
      const token = value.trim();
      // BotFather's tokens: the bot's numeric id, a colon, then 35 letters, digits, _ and -.
      if (!/^\d{1,20}:[\w-]{30,100}$/.test(token)) {
        ctx.addIssue({
          code: 'custom',
          // The value is a secret: its length is said, never the value.
          message:
            token === ''
              ? 'TELEGRAM_BOT_TOKEN is blank: set the token @BotFather gave (123456789:AA…), or unset it to turn Telegram off'
              : `TELEGRAM_BOT_TOKEN must be the token @BotFather gave, like 123456789:AAE… (the bot id, a colon, then 35 letters, digits, _ or -), got ${token.length} characters that are not one`,
        });
        return z.NEVER;
      }
      return token;
    }),
  TELEGRAM_API_BASE: httpUrl('TELEGRAM_API_BASE'),
  TELEGRAM_QUERIES_PER_USER_PER_MINUTE: positiveInt(
    'TELEGRAM_QUERIES_PER_USER_PER_MINUTE',
    60,
    10_000,
  ),
});

function readIntegrationsConfig(e: z.output<typeof integrationsEnvSchema>) {
  return {
    integrations: {
      /** The highest rating a chat platform is shown. */
      rating: e.INTEGRATIONS_RATING,
      /** Requests a minute from one workspace, team or guild, and from one person in it. */
      perWorkspacePerMinute: e.INTEGRATIONS_PER_WORKSPACE_PER_MINUTE,
      perUserPerMinute: e.INTEGRATIONS_PER_USER_PER_MINUTE,
      slack: e.SLACK_SIGNING_SECRET
        ? {
            signingSecret: e.SLACK_SIGNING_SECRET,
            /** The only hosts a response_url may name (lower case). */
            responseHosts: (e.SLACK_RESPONSE_HOSTS.length > 0
              ? e.SLACK_RESPONSE_HOSTS
              : ['hooks.slack.com']
            ).map((host) => host.toLowerCase()),
          }
        : undefined,
      mattermost:
        e.MATTERMOST_COMMAND_TOKENS.length > 0 && e.MATTERMOST_URL
          ? { commandTokens: e.MATTERMOST_COMMAND_TOKENS, serverUrl: e.MATTERMOST_URL }
          : undefined,
      discord: e.DISCORD_PUBLIC_KEY
        ? {
            publicKey: e.DISCORD_PUBLIC_KEY,
            applicationId: e.DISCORD_APPLICATION_ID,
            botToken: e.DISCORD_BOT_TOKEN,
            apiBase: e.DISCORD_API_BASE ?? 'https://discord.com/api/v10',
          }
        : undefined,
      /** For `sticky discord register`, which needs no public key. */
      discordRegistration: {
        applicationId: e.DISCORD_APPLICATION_ID,
        botToken: e.DISCORD_BOT_TOKEN,
        apiBase: e.DISCORD_API_BASE ?? 'https://discord.com/api/v10',
      },
      /** The Telegram inline bot, when TELEGRAM_BOT_TOKEN is set (docs/integrations.md). */
      telegram: e.TELEGRAM_BOT_TOKEN
        ? {
            botToken: e.TELEGRAM_BOT_TOKEN,
            /** Where the Bot API is (tests: a fake on loopback). */
            apiBase: e.TELEGRAM_API_BASE ?? 'https://api.telegram.org',
            /** Inline queries one Telegram user may make per minute before answers are empty. */
            queriesPerUserPerMinute: e.TELEGRAM_QUERIES_PER_USER_PER_MINUTE,
          }
        : undefined,
    },
  };
}

/** Every variable, each section's in turn: a bad value anywhere is one line of the error. */
const envFieldsSchema = z.object({
  ...serverEnvSchema.shape,
  ...databaseEnvSchema.shape,
  ...accessEnvSchema.shape,
  ...contentEnvSchema.shape,
  ...mediaEnvSchema.shape,
  ...storageEnvSchema.shape,
  ...integrationsEnvSchema.shape,
});

/** The rules between variables; zod runs them once every variable is valid on its own. */
function checkCombinations(env: z.output<typeof envFieldsSchema>, ctx: z.RefinementCtx): void {
  if (env.STORAGE === 's3' && !env.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', message: 'STORAGE=s3 needs S3_BUCKET' });
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together, got only one',
    });
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    ctx.addIssue({
      code: 'custom',
      message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together, got only one',
    });
  }
  const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidc.some(Boolean) && !oidc.every(Boolean)) {
    ctx.addIssue({
      code: 'custom',
      message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    });
  }
  if (env.GOOGLE_CLIENT_ID && env.OIDC_ISSUER) {
    ctx.addIssue({
      code: 'custom',
      message: 'Set either GOOGLE_CLIENT_* or OIDC_*, not both',
    });
  }
  const hasIssuer = Boolean(env.GOOGLE_CLIENT_ID || env.OIDC_ISSUER);
  // The local sign-in lets anyone claim any email (docs/security.md, "Sign-in"): only for
  // this machine, or where the operator asks for it, never beside an allow-list, and beside
  // admins only on this machine.
  const hasAllowList = env.ALLOWED_EMAILS.length > 0 || env.ALLOWED_EMAIL_DOMAINS.length > 0;
  if (!hasIssuer && env.NODE_ENV !== 'production') {
    const host = env.HOST ?? '127.0.0.1';
    const publicHost = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : 'localhost';
    if (hasAllowList) {
      ctx.addIssue({
        code: 'custom',
        message:
          'ALLOWED_EMAILS and ALLOWED_EMAIL_DOMAINS need a real sign-in provider (GOOGLE_CLIENT_* or OIDC_*): the local sign-in lets anyone claim any email',
      });
    } else if (
      env.LOCAL_SIGN_IN === true &&
      (env.ADMIN_EMAILS.length > 0 || env.OIDC_ADMIN_GROUPS.length > 0) &&
      !(isLoopbackHost(host) && isLoopbackHost(publicHost))
    ) {
      // Anyone who reaches it could sign in as an admin's email (docs/security.md, "Sign-in").
      ctx.addIssue({
        code: 'custom',
        message: `ADMIN_EMAILS and OIDC_ADMIN_GROUPS need a real sign-in provider (GOOGLE_CLIENT_* or OIDC_*) when HOST or PUBLIC_URL is not loopback (got HOST ${JSON.stringify(host)}, PUBLIC_URL ${JSON.stringify(env.PUBLIC_URL ?? 'http://localhost')}): the local sign-in lets anyone claim an admin's email`,
      });
    } else if (env.LOCAL_SIGN_IN === false) {
      ctx.addIssue({
        code: 'custom',
        message:
          'LOCAL_SIGN_IN=0 leaves no way to sign in: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
      });
    } else if (
      env.LOCAL_SIGN_IN !== true &&
      !(isLoopbackHost(host) && isLoopbackHost(publicHost))
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `The local sign-in (anyone can sign in as anyone) is only offered on this machine, with HOST and PUBLIC_URL on loopback (got HOST ${JSON.stringify(host)}, PUBLIC_URL ${JSON.stringify(env.PUBLIC_URL ?? 'http://localhost')}): set GOOGLE_CLIENT_* or OIDC_*, or LOCAL_SIGN_IN=1 to offer it anyway`,
      });
    }
  }
  if (env.NODE_ENV === 'production' && !hasIssuer) {
    ctx.addIssue({
      code: 'custom',
      message:
        'No sign-in provider is configured: in production set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (or OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET); the local demo sign-in is only for development',
    });
  }
  // Links, cookies and sign-in name the public URL; with a port not known in advance, say it.
  if (env.PORT === 0 && !env.PUBLIC_URL) {
    ctx.addIssue({
      code: 'custom',
      message: 'PORT=0 (any free port) needs PUBLIC_URL: the URL people reach the server at',
    });
  }
  // Cookies, sign-in and links travel over it: in production it must be https (docs/security.md).
  if (
    env.NODE_ENV === 'production' &&
    env.PUBLIC_URL &&
    env.PUBLIC_URL.startsWith('http:') &&
    !isLoopbackHost(new URL(env.PUBLIC_URL).hostname)
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `PUBLIC_URL must be an https URL in production (put Sticky behind a TLS proxy), got ${JSON.stringify(env.PUBLIC_URL)}`,
    });
  }
  // The embedded PostgreSQL has no replica: it listens on loopback, on a port chosen at each start.
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
    ctx.addIssue({
      code: 'custom',
      message:
        'DATABASE_READ_URL needs DATABASE_URL: the read replica is a streaming replica of that PostgreSQL (unset DATABASE_READ_URL to use the embedded one)',
    });
  }
  if (env.ANALYTICS_SCRIPT_INTEGRITY && !env.ANALYTICS_SCRIPT_URL) {
    ctx.addIssue({
      code: 'custom',
      message: 'ANALYTICS_SCRIPT_INTEGRITY needs ANALYTICS_SCRIPT_URL: the script it vouches for',
    });
  }
  if (Boolean(env.MATTERMOST_URL) !== env.MATTERMOST_COMMAND_TOKENS.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message:
        'MATTERMOST_COMMAND_TOKENS and MATTERMOST_URL must be set together: the command tokens to accept and the server whose response_url Sticky may call',
    });
  }
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    ctx.addIssue({
      code: 'custom',
      message: 'SESSION_SECRET must be set in production (at least 32 random characters)',
    });
  }
}

const envSchema = envFieldsSchema.superRefine(checkCombinations);

export type SignInProvider =
  | { kind: 'google'; issuer: string; clientId: string; clientSecret: string; displayName: string }
  | { kind: 'oidc'; issuer: string; clientId: string; clientSecret: string; displayName: string }
  | { kind: 'local'; displayName: string };

/** The server's configuration, as `loadConfig` reads it from the environment. */
export type AppConfig = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment; throws a ConfigError listing every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => issue.message));
  }
  const e = parsed.data;
  return {
    ...readServerConfig(e),
    ...readDatabaseConfig(e, cwd),
    ...readAccessConfig(e),
    ...readContentConfig(e),
    ...readMediaConfig(e),
    ...readStorageConfig(e),
    ...readIntegrationsConfig(e),
  };
}

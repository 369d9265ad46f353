import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';
import { insertCatalogItems, insertCategory } from '../test-support/catalog-fixtures.ts';
import {
  declaredResponse,
  declaresStatus,
  isApiUrl,
  listApiRoutes,
  routeName,
} from '../test-support/envelopes.ts';
import { signInAs } from '../test-support/sign-in.ts';
import { buildMultipart, makeAnimation, sameSiteHeaders } from '../test-support/uploads.ts';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, unknown>; tags?: string[] }>>;
}

/** `/api/favorites/:id` → `/api/favorites/{id}`, as OpenAPI writes paths. */
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('the API documents itself', () => {
  let testApp: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    testApp = await createTestApp({ ADMIN_EMAILS: 'admin@example.com' });
    const response = await testApp.app.inject('/api/docs/openapi.json');
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('lists every /api and /v1 route with its answers, from the routes themselves', () => {
    const routes = listApiRoutes(testApp.app);
    expect(routes.length).toBeGreaterThan(25);
    const problems: string[] = [];
    for (const route of routes) {
      const responses = route.schema?.response as Record<string, unknown> | undefined;
      const success = Object.keys(responses ?? {}).filter((status) => /^[23]/.test(status));
      if (success.length === 0) problems.push(`${routeName(route)}: no success response schema`);
      if (!declaresStatus(route, 400) || !declaresStatus(route, 500)) {
        // Sign-in navigations answer every failure with a redirect, never a JSON error.
        if (!success.includes('302')) problems.push(`${routeName(route)}: no error schemas`);
      }
      const operation = document.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        problems.push(`${routeName(route)}: missing from the document`);
        continue;
      }
      for (const status of success) {
        if (!operation.responses?.[status]) {
          problems.push(`${routeName(route)}: ${status} missing from the document`);
        }
      }
      if (!operation.tags?.length) problems.push(`${routeName(route)}: no tag`);
    }
    expect(problems).toEqual([]);
  });

  it('hides only its own pages and CORS preflight, never an API route', () => {
    const hidden = testApp.app.routeInventory
      .filter((route) => isApiUrl(route.url) && route.method !== 'HEAD')
      .filter((route) => route.schema?.hide)
      .map(routeName)
      .sort();
    expect(hidden).toEqual(
      [
        'GET /api/docs',
        'GET /api/docs/js/scalar.js',
        'GET /api/docs/openapi.json',
        'GET /api/docs/openapi.yaml',
        'OPTIONS /v1*',
        'OPTIONS /v2*',
        'OPTIONS /v2/emoji*',
      ].sort(),
    );
  });

  it('documents nothing that is not an API route (the web app, the sign-in issuer)', () => {
    const documented = Object.keys(document.paths);
    expect(
      documented.filter(
        (path) => !/^\/(api|v\d+|media|healthz|readyz|metrics|oembed|u)\b/.test(path),
      ),
    ).toEqual([]);
  });

  // It draws animated text for real (text/animate, text search): seconds on a loaded machine.
  it('sends what it documents: a real answer of every GET route fits its declared schema', async () => {
    const [gif, sticker] = (await insertCatalogItems(testApp.database, [
      { title: 'Dancing cat', tags: ['cat', 'dance'], trendScore: 5 },
      { type: 'sticker', title: 'Cat sticker', tags: ['cat', 'emoji', '🐱'], trendScore: 2 },
      { type: 'text', title: 'Hello cat', tags: ['cat'] },
    ])) as [string, string, string];
    const animals = await insertCategory(testApp.database, {
      name: 'Animals',
      featuredItemId: gif,
      itemIds: [gif],
    });
    const cats = await insertCategory(testApp.database, {
      name: 'Cats',
      parentId: animals.id,
      itemIds: [gif],
    });
    // An admin: the admin routes answer too.
    const { cookie } = await signInAs(testApp, { email: 'admin@example.com' });
    // A good value for each parameter name the routes declare.
    const samples: Record<string, string> = {
      id: gif,
      gif_id: gif,
      ids: `${gif},${sticker}`,
      q: 'cat',
      s: 'cat',
      action_type: 'CLICK',
      term: 'cat',
      tag: 'cat',
      m: 'hi',
      category: animals.nameEncoded,
      subcategory: cats.nameEncoded,
      returnTo: '/favorite',
    };
    const problems: string[] = [];
    const routes = listApiRoutes(testApp.app).filter(
      // Navigations, not API calls: the sign-in callback, and upload links (uploads.test.ts);
      // a shared link's answers need an upload or PUBLIC_LINKS (shared-links.test.ts).
      (route) =>
        route.method === 'GET' &&
        !route.url.startsWith('/api/auth/callback') &&
        !route.url.startsWith('/u/') &&
        !route.url.startsWith('/api/links/') &&
        !route.url.startsWith('/api/shared/'),
    );
    for (const route of routes) {
      // GIPHY's emoji variations are asked of an emoji sticker, not a GIF.
      const pathSamples = route.url.startsWith('/v2/emoji') ? { ...samples, id: sticker } : samples;
      const path = route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) => pathSamples[name]!);
      const querystring = route.schema?.querystring as { shape?: Record<string, unknown> };
      const query = new URLSearchParams(
        Object.keys(querystring?.shape ?? {})
          .filter((name) => samples[name] !== undefined)
          .map((name): [string, string] => [name, samples[name]!]),
      );
      const url = query.size > 0 ? `${path}?${query}` : path;
      const response = await testApp.app.inject({ url, headers: { cookie } });
      const what = `${routeName(route)} (${url}) → ${response.statusCode}`;
      if (response.statusCode >= 400) {
        problems.push(`${what}: ${response.body.slice(0, 200)}`);
        continue;
      }
      const schema = declaredResponse(route, response.statusCode);
      if (!schema) {
        if (!declaresStatus(route, response.statusCode)) problems.push(`${what}: undeclared`);
        continue;
      }
      const parsed = schema.safeParse(response.body === '' ? undefined : response.json());
      if (!parsed.success) problems.push(`${what}: ${parsed.error.message.slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
    // The item routes above answered with real items, not empty pages.
    const trending = await testApp.app.inject({ url: '/v1/gifs/trending', headers: { cookie } });
    expect(trending.json().data.map((item: { id: string }) => item.id)).toEqual([gif]);
  }, 120_000);
});

describe('the API reference page', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('renders from this server alone: its script is served here, nothing from a CDN', async () => {
    const page = await testApp.app.inject({ url: '/api/docs/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const sources = [...page.body.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['js/scalar.js']);
    expect(page.body).not.toMatch(/https?:\/\//);
    expect(page.body).toContain('"url": "./openapi.json"');

    const script = await testApp.app.inject('/api/docs/js/scalar.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body.length).toBeGreaterThan(100_000);
    expect(script.body).toContain('createApiReference');

    const withoutSlash = await testApp.app.inject('/api/docs');
    expect(withoutSlash.statusCode).toBe(301);
    expect(withoutSlash.headers.location).toBe('/api/docs/');
  });

  it('allows exactly its own inline script by hash, and no other inline script', async () => {
    const page = await testApp.app.inject('/api/docs/');
    const csp = String(page.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    const inline = [...page.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)];
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256').update(inline[0]![1]!).digest('base64');
    expect(directives.get('script-src')).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    // The rest of the site keeps its own, stricter policy.
    const elsewhere = await testApp.app.inject('/api/config');
    expect(String(elsewhere.headers['content-security-policy'])).not.toContain('sha256-');
  });
});

interface DocumentedOperation {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: {
    content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }>;
  };
}

describe('the reference, read by someone writing a script', () => {
  let testApp: TestApp;
  let document: {
    tags: Array<{ name: string; description?: string; 'x-displayName'?: string }>;
    paths: Record<string, Record<string, DocumentedOperation>>;
    components: {
      securitySchemes: Record<string, { type: string; scheme?: string; description?: string }>;
    };
  };
  const operation = (path: string, method: string) => document.paths[path]![method]!;
  const takesToken = (path: string, method: string) =>
    operation(path, method).security?.some((requirement) => 'token' in requirement) ?? false;

  beforeAll(async () => {
    // With a job queue: an upload is taken only by a server that processes it.
    testApp = await createTestApp({}, { hasJobs: true });
    document = (await testApp.app.inject('/api/docs/openapi.json')).json();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('declares every heading it uses, named and described, the APIs first', () => {
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'api',
      'v1',
      'v2',
      'uploads',
      'previews',
      'media',
      'health',
    ]);
    for (const tag of document.tags) {
      expect(tag['x-displayName'], tag.name).toBeTruthy();
      expect(tag.description, tag.name).toBeTruthy();
    }
    const declared = new Set(document.tags.map((tag) => tag.name));
    const used = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((each) => each.tags ?? []),
    );
    expect(used.filter((tag) => !declared.has(tag))).toEqual([]);
    expect(operation('/api/uploads', 'post').tags).toEqual(['uploads']);
    expect(operation('/v2/search', 'get').tags).toEqual(['v2']);
  });

  it('offers the Bearer scheme on exactly the routes a personal token may call', () => {
    const scheme = document.components.securitySchemes.token;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(scheme?.description).toContain('not a GIPHY `api_key`');
    expect(takesToken('/v1/gifs/trending', 'get')).toBe(true);
    expect(takesToken('/v2/search', 'get')).toBe(true);
    expect(takesToken('/api/uploads', 'post')).toBe(true);
    // Tokens never reach sign-in or token management (docs/security.md, "API tokens").
    expect(takesToken('/api/tokens', 'post')).toBe(false);
    expect(takesToken('/api/auth/me', 'get')).toBe(false);
  });

  it('describes the upload form well enough that sending it as described works', async () => {
    const form = operation('/api/uploads', 'post').requestBody?.content['multipart/form-data'];
    const fields = form?.schema.properties ?? {};
    expect(fields.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['title', 'tags', 'visibility']));

    // What "Test Request" sends: the documented parts, with a token made on /settings.
    const { cookie } = await signInAs(testApp);
    const made = await testApp.app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { ...sameSiteHeaders(testApp, cookie), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'reference' }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const values: Record<string, string> = { title: 'Sent as documented', tags: 'docs' };
    const { body, contentType } = buildMultipart(
      [{ name: 'documented.gif', bytes: await makeAnimation({ format: 'gif' }) }],
      Object.fromEntries(Object.entries(values).filter(([name]) => name in fields)),
    );
    const sent = await testApp.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { authorization: `Bearer ${made.json().secret}`, 'content-type': contentType },
      payload: body,
    });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().uploads[0]).toMatchObject({ fileName: 'documented.gif' });
    expect(sent.json().uploads[0].state).not.toBe('failed');
  });

  it("is drawn in the app's dark theme, without a light switch", async () => {
    const page = await testApp.app.inject({ url: '/api/docs/', headers: { accept: 'text/html' } });
    expect(page.body).toMatch(/"forceDarkModeState":\s*"dark"/);
    expect(page.body).toMatch(/"hideDarkModeToggle":\s*true/);
  });
});

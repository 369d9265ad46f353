import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import {
  contentFilterSchema,
  describeTrendingRequest,
  findRenditionName,
  firstPageElementId,
  homeRouteModules,
  homeTrendingParams,
  meResponseSchema,
  pickRendition,
  pickVideoSource,
  selectAboveFoldOnPhones,
  sessionElementId,
  smallScreenQuery,
  tileRenditions,
} from '@sticky/contracts';
import type {
  ContentFilter,
  GiphyItem,
  ItemType,
  RenditionMedia,
  SessionUser,
} from '@sticky/contracts';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { findSessionUser, sessionCookieName } from '../auth/sessions.ts';
import type { SerializedItems } from '../catalog/query/item-json.ts';
import { readTrendingPage } from '../catalog/query/trending-pages.ts';
import type { TrendingPage } from '../catalog/query/trending-pages.ts';
import { AppError } from '../lib/app-error.ts';
import {
  arePreviewsPublic,
  loadItemPreview,
  parseItemPath,
  renderPreviewTags,
} from '../unfurl/item-preview.ts';
import { sendCompressed } from '../plugins/compression.ts';
import { readRouteChunks } from './route-chunks.ts';
import { listEnvelopeJson } from './v1/envelope.ts';

export const webDistDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

const itemTypeByFilter: Record<ContentFilter, ItemType> = {
  gifs: 'gif',
  stickers: 'sticker',
  text: 'text',
};

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * JSON carried in the page (docs/web.md, "First page") as a `<script type="application/json">`:
 * data, not a script (the CSP allows no inline script), with `<` escaped so nothing in it can
 * close the element.
 */
function renderDataElement(
  id: string,
  json: string,
  attributes: Record<string, string> = {},
): string {
  const extra = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  const escaped = json.replace(/</g, '\\u003c');
  return `<script type="application/json" id="${id}"${extra}>${escaped}</script>`;
}

type GiphyImages = Record<
  string,
  (RenditionMedia & { url?: string; width?: string; height?: string }) | undefined
>;

/** What the first page reads of an item our `/v1` serialized (the cached page's JSON). */
type TileItem = Pick<GiphyItem, 'type' | 'is_sticker' | 'images'>;

/** A trending page as the HTML of `/` carries it: its items cut down to their tiles. */
interface FirstPage {
  /** The items with only their tiles' renditions (contracts' `tileRenditions`). */
  tiles: SerializedItems;
  /** What the first tiles paint first, preloaded with the page. */
  firstPaints: FirstPaint[];
}

interface FirstPaint {
  href: string;
  type?: string;
  /** Preloaded only on screens this media query matches. */
  media?: string;
}

/**
 * The page's items with only the renditions a tile is drawn from: the page is in the HTML the
 * browser reads before anything else, and the other renditions' URLs are three quarters of its
 * bytes (docs/web.md, "First page"). The item page and every later page ask for whole items.
 */
function prepareFirstPage(page: TrendingPage): FirstPage {
  const items = JSON.parse(page.data.json) as TileItem[];
  const tiles = items.map((item) => {
    const images: GiphyImages = {};
    for (const names of [tileRenditions.animated, tileRenditions.still]) {
      const name = findRenditionName(item.images, names);
      if (name !== undefined) images[name] = item.images?.[name];
    }
    return { ...item, images };
  });
  return {
    tiles: { json: JSON.stringify(tiles), count: page.data.count },
    firstPaints: listFirstPaints(items),
  };
}

/**
 * What the tiles on a phone's first screen paint first (contracts' `selectAboveFoldOnPhones`,
 * the masonry the web lays them out with), as the web chooses it (pickVideoSource, shared with
 * the web): a video's poster, or the animated WebP (else GIF) of a tile shown as an image. The
 * largest paint of `/` is one of them, and not always in the first row: fetched with the page
 * instead of after the app's JS. On a wider screen they are its first tiles too, but there a
 * video tile shows no poster (docs/web.md, "Media"): posters are preloaded on small screens
 * only. The browser's formats are not known here: those of Chromium and Firefox are assumed.
 */
function listFirstPaints(items: readonly TileItem[]): FirstPaint[] {
  return selectAboveFoldOnPhones(items, (item) => item.images).flatMap((item) => {
    const rendition = pickRendition(item.images, tileRenditions.animated);
    const still = pickRendition(item.images, tileRenditions.still);
    const isTransparent = item.type !== 'gif' || Boolean(item.is_sticker);
    const support = { isTransparent, canPlayMp4: true, canPlayWebm: true, canPlayAlphaWebm: true };
    const video = pickVideoSource(rendition, still, support);
    if (video) return video.poster ? [{ href: video.poster, media: smallScreenQuery }] : [];
    if (rendition?.webp) return [{ href: rendition.webp, type: 'image/webp' }];
    return rendition?.url ? [{ href: rendition.url }] : [];
  });
}

/**
 * The person a page is for: the session cookie's user, looked up once per page. A failure to
 * read it only costs the app a round trip: it asks `/api/auth/me` as without one.
 */
async function findPageUser(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<SessionUser | null> {
  const { config, database } = app.deps;
  const token = request.cookies[sessionCookieName(config)];
  if (!token) return null;
  try {
    return await findSessionUser(database.db, config, token);
  } catch (error) {
    request.log.warn({ err: error }, 'could not read the session of a page');
    return null;
  }
}

/**
 * What `GET /api/auth/me` would answer the page's person (contracts' `sessionElementId`), so the
 * app draws a signed-in screen and its header whole from its first render, without a round trip
 * first (docs/web.md, "First page").
 */
function renderSession(user: SessionUser): string {
  const answer = meResponseSchema.parse({ success: true, user });
  return renderDataElement(sessionElementId, JSON.stringify(answer));
}

/**
 * For a signed-in request of `/` in local mode, the first page of trending the home page will
 * ask for (its `?type=`, 25 a page, rated g), as `/v1` answers it with each item cut down to its
 * tile (`prepareFirstPage`), in a data element the app reads instead of asking (docs/web.md,
 * "First page"): the first tiles then wait for the HTML and the app's JS, not also for an API
 * round trip; the first tiles' images and the home page's scripts (route-chunks.ts) are
 * preloaded. A failure to read it only costs the app that round trip.
 */
async function renderFirstPage(
  app: FastifyInstance,
  request: FastifyRequest,
  homeChunks: readonly string[],
  firstPages: WeakMap<TrendingPage, FirstPage>,
): Promise<string | null> {
  if (app.deps.config.giphy) return null;
  try {
    const typeParam = new URL(request.url, 'http://localhost').searchParams.get('type');
    const parsed = contentFilterSchema.safeParse(typeParam);
    const type = parsed.success ? parsed.data : 'gifs';
    const params = { ...homeTrendingParams, offset: 0 };
    const page = await readTrendingPage(app.deps, { ...params, types: [itemTypeByFilter[type]] });
    // Kept pages are the same objects while the catalog is unchanged: cut down once each.
    let firstPage = firstPages.get(page);
    if (!firstPage) {
      firstPage = prepareFirstPage(page);
      firstPages.set(page, firstPage);
    }
    const preloads = firstPage.firstPaints
      .map(
        (image) =>
          `<link rel="preload" as="image" href="${escapeAttribute(image.href)}"${image.type ? ` type="${image.type}"` : ''}${image.media ? ` media="${escapeAttribute(image.media)}"` : ''} fetchpriority="high">`,
      )
      .join('');
    const modules = homeChunks
      .map((file) => `<link rel="modulepreload" href="${escapeAttribute(file)}">`)
      .join('');
    const json = listEnvelopeJson(firstPage.tiles, page.totalCount, params.offset);
    const described = describeTrendingRequest({ type, ...params });
    return `${preloads}${modules}${renderDataElement(firstPageElementId, json, { 'data-request': described })}`;
  } catch (error) {
    request.log.warn({ err: error }, 'could not put the first page of trending in the page');
    return null;
  }
}

/** An item page's preview: what goes in its head, or that no such visible item exists. */
type ItemPageHead = { tags: string; title: string; description: string } | 'missing' | null;

/**
 * The link preview of an item page (OpenGraph, Twitter card, oEmbed discovery), for chat
 * apps' crawlers, which run no JavaScript and send no cookie (docs/api.md, "Link previews").
 * The app itself still guards the page for people. A private instance shows it only to a
 * signed-in request; a failure only costs the preview. `missing` when the lookup found no
 * visible item: the page is then a 404 for crawlers (the app still draws its own answer).
 */
async function renderItemPreview(
  app: FastifyInstance,
  request: FastifyRequest,
  itemPath: NonNullable<ReturnType<typeof parseItemPath>>,
  user: SessionUser | null,
): Promise<ItemPageHead> {
  const { config } = app.deps;
  if (config.giphy) return null;
  try {
    if (!arePreviewsPublic(config) && !user) return null;
    const preview = await loadItemPreview(app.deps, itemPath);
    if (!preview) return 'missing';
    return {
      tags: renderPreviewTags(preview, config),
      title: preview.title,
      description: preview.description,
    };
  } catch (error) {
    request.log.warn({ err: error }, 'could not make the link preview of an item page');
    return null;
  }
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page's `<title>`, the item's own: what a crawler lists; its description goes in `carried`. */
function nameItemPage(html: string, title: string): string {
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeText(title)} · Sticky</title>`)
    .replace(/<meta name="description"[^>]*>/, '');
}

/**
 * index.html asks for the session check with the page (apps/web/index.html): a page that
 * carries the session has no use for that answer, and the bytes and connection it costs come
 * before the first tiles.
 */
const sessionCheckPreload = /<link\b[^>]*\bhref="\/api\/auth\/me"[^>]*>/;

function insertIntoHead(html: string, content: string): string {
  const at = html.includes('</head>') ? html.indexOf('</head>') : html.length;
  return `${html.slice(0, at)}${content}${html.slice(at)}`;
}

/**
 * Serves the built SPA; any other GET that wants HTML gets index.html (client-side routing).
 * The app's root not-found answer: /api, /v1 and /media answer their own unknown paths.
 */
export const spaRoutes: FastifyPluginAsync<{ distDir?: string }> = async (app, options) => {
  const distDir = options.distDir ?? webDistDir;
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  // Read once, as the build's manifest is (readRouteChunks): a new build means a restart, since
  // its content-hashed asset names change with it.
  const indexHtml = hasBuild ? fs.readFileSync(indexFile, 'utf8') : '';
  const homeChunks = readRouteChunks(distDir)(homeRouteModules);
  const firstPages = new WeakMap<TrendingPage, FirstPage>();
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build's manifest (.vite/) is the server's to read, not the web's.
      dotfiles: 'ignore',
      // The build writes .br and .gz beside each script and style (apps/web/build).
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          'cache-control',
          isHashedAsset ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
      },
    });
  } else {
    app.log.warn(`web app not built (${indexFile} missing): run "npm run build"`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const accept = request.headers.accept ?? '';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    // Chat apps' crawlers ask for item pages with `*/*` or no Accept at all.
    const itemPath = isRead ? parseItemPath(request.url.split('?')[0]!) : null;
    const wantsHtml =
      accept.includes('text/html') || (itemPath !== null && (!accept || accept.includes('*/*')));
    if (isRead && wantsHtml && (request.method === 'GET' || itemPath)) {
      if (!hasBuild) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web app is not built yet. Run "npm run build", then restart the server.');
      }
      const user = await findPageUser(app, request);
      // The landing page's largest image: fetched with the page, not after its JS has run
      // (a signed-in person is sent on to `/` at once: not for them).
      if (!user && (request.url === '/landing' || request.url.startsWith('/landing?'))) {
        reply.header('link', '</landing/hero.svg>; rel=preload; as=image');
      }
      let html = indexHtml;
      const isHome = request.url === '/' || request.url.startsWith('/?');
      // A page differs with the session cookie (the session it carries, the home page's first
      // page, a private instance's previews): no shared cache may keep it for someone else.
      reply.header('vary', 'cookie');
      const isPrivate =
        Boolean(user) || isHome || (itemPath !== null && !arePreviewsPublic(app.deps.config));
      reply.header('cache-control', isPrivate ? 'private, no-cache' : 'no-cache');
      const carried: string[] = [];
      if (user) {
        html = html.replace(sessionCheckPreload, '');
        carried.push(renderSession(user));
      }
      if (isHome && user) {
        const firstPage = await renderFirstPage(app, request, homeChunks, firstPages);
        if (firstPage) carried.push(firstPage);
      } else if (itemPath) {
        const head = await renderItemPreview(app, request, itemPath, user);
        // A signed-in owner may still open their private item: only others get the 404.
        if (head === 'missing') {
          if (!user) reply.status(404);
        } else if (head) {
          html = nameItemPage(html, head.title);
          carried.push(
            `<meta name="description" content="${escapeAttribute(head.description)}">`,
            head.tags,
          );
        }
      }
      if (carried.length > 0) html = insertIntoHead(html, carried.join(''));
      return sendCompressed(request, reply.type('text/html; charset=utf-8'), html);
    }
    throw new AppError('not_found', `Not found: ${request.method} ${request.url.split('?')[0]}`);
  });
};

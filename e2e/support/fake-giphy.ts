import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Real GIPHY responses recorded into the repository; the fake serves nothing else. */
export const giphyFixturesDir = path.join(repoRoot, 'fixtures', 'giphy');

type Json = Record<string, unknown>;

export interface FakeGiphyRequest {
  path: string;
  query: Record<string, string>;
}

export interface FakeGiphy {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** Every API request seen (not media), in order. */
  requests: FakeGiphyRequest[];
  /** Items by pool; ids are GIPHY's own. */
  items: { gifs: Json[]; stickers: Json[]; text: Json[] };
  categories: Json[];
  stop: () => Promise<void>;
}

function readFixture(name: string): Json {
  return JSON.parse(fs.readFileSync(path.join(giphyFixturesDir, name), 'utf8')) as Json;
}

/**
 * What the fake's media host answers for every GIPHY media URL: a 16×16 two-frame animation
 * (sharp wrote these bytes; any real image does, the journey compares the bytes it downloads
 * with the bytes served).
 */
const media = {
  gif: Buffer.from(
    'R0lGODlhEAAQAIAAAExpceY8WiH/C05FVFNDQVBFMi4wAwEAAAAh+QQFMgAAACwAAAAAEAAQAAACDoyPqcvtD6OctNqLsz4FACH5BAUyAAAALAAAAAAQABAAgExpcTx45gIOjI+py+0Po5y02ouzPgUAOw==',
    'base64',
  ),
  webp: Buffer.from(
    'UklGRogAAABXRUJQVlA4WAoAAAACAAAADwAADwAAQU5JTQYAAAD/////AABBTk1GKgAAAAAAAAAAAA8AAA8AAPQBAAJWUDhMEQAAAC8PwAMAB1Cemler/4GI6H8AAEFOTUYqAAAAAAAAAAAADwAADwAA9AEAAFZQOEwRAAAALw/AAwAHULzy1Lz/gYjofwAA',
    'base64',
  ),
};

/** Points every GIPHY media URL in an item at the fake's own media host. */
function rewriteMedia(value: unknown, base: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/^https?:\/\/[a-z0-9.-]*giphy\.com\/([^?#]*)(\?[^#]*)?/i, `${base}/$1`);
  }
  if (Array.isArray(value)) return value.map((entry) => rewriteMedia(entry, base));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, rewriteMedia(entry, base)]),
    );
  }
  return value;
}

function listEnvelope(all: Json[], query: Record<string, string>, fallbackLimit = 25) {
  const limit = Math.min(Math.max(Number(query.limit) || fallbackLimit, 1), 100);
  const offset = Math.max(Number(query.offset) || 0, 0);
  const data = all.slice(offset, offset + limit);
  return {
    data,
    pagination: { total_count: all.length, count: data.length, offset },
    meta: { status: 200, msg: 'OK', response_id: randomBytes(8).toString('hex') },
  };
}

function errorEnvelope(status: number, msg: string) {
  return { meta: { status, msg, response_id: randomBytes(8).toString('hex') } };
}

function matches(item: Json, term: string): boolean {
  const haystack = [item.title, item.slug, ...((item.tags as string[] | undefined) ?? [])]
    .join(' ')
    .toLowerCase();
  return term
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * A local stand-in for GIPHY's API and media CDN, serving the real responses in
 * fixtures/giphy: trending, search, gifs by id(s), related and categories (GIPHY
 * publishes no category fixture: those are made from the fixtures' items, in the documented
 * shape). Media URLs point at this server, which answers with a small real image. CORS is open, as
 * GIPHY's is, because the browser calls it directly.
 */
export async function startFakeGiphy(): Promise<FakeGiphy> {
  const requests: FakeGiphyRequest[] = [];
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const load = (name: string) =>
    ((rewriteMedia(readFixture(name), url) as Json).data as Json[]).filter(Boolean);
  const single = (rewriteMedia(readFixture('v1-gifs-by-id_single-gif.giphy-js.json'), url) as Json)
    .data as Json;
  const trending = load('v1-gifs-trending_2021_with-user-and-analytics.ryanw-mobile.json');
  const searchable = [
    ...load('v1-gifs-search-or-trending_5-gifs.giphy-js.json'),
    ...load('v1-gifs-search_2019_with-analytics.trekhleb-giphygram.json'),
    ...load('v1-gifs-search_2017_legacy-shape.redi-school.json'),
  ];
  const stickers = load('v2-emoji-id-variations_stickers.giphy-js.json');
  const uniqueItems = (list: Json[]) => [
    ...new Map(list.map((item) => [String(item.id), item])).values(),
  ];
  const gifs = uniqueItems([single, ...trending, ...searchable]);
  const text = searchable.slice(5, 10).map((item) => ({ ...item }));
  const all = uniqueItems([...gifs, ...stickers]);
  const byId = new Map(all.map((item) => [String(item.id), item]));

  const categories: Json[] = [
    {
      name: 'Reactions',
      name_encoded: 'reactions',
      subcategories: [
        { name: 'happy', name_encoded: 'happy' },
        { name: 'surprised', name_encoded: 'surprised' },
      ],
      gif: trending[0],
    },
    {
      name: 'Animals',
      name_encoded: 'animals',
      subcategories: [{ name: 'cats', name_encoded: 'cats' }],
      gif: searchable[10],
    },
  ];
  const categoryItems: Record<string, Json[]> = {
    // The single-GIF fixture first: its creator has a long description (Read More).
    'reactions/happy': [single, ...trending.slice(0, 11)],
    'reactions/surprised': trending.slice(12),
    'animals/cats': searchable.filter((item) => matches(item, 'cat')),
  };

  const pools: Record<string, Json[]> = { gifs, stickers, text };

  server.on('request', (request, response) => {
    const requestUrl = new URL(request.url ?? '/', url);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET',
        'access-control-allow-headers': '*',
      });
      response.end();
      return;
    }

    if (!requestUrl.pathname.startsWith('/v1/')) {
      // The media host: an image for every path, WebP where a WebP was asked for.
      const isWebp = requestUrl.pathname.endsWith('.webp');
      const bytes = isWebp ? media.webp : media.gif;
      response.writeHead(200, {
        'content-type': isWebp ? 'image/webp' : 'image/gif',
        'content-length': String(bytes.length),
        'access-control-allow-origin': '*',
        'cache-control': 'public, max-age=3600',
      });
      response.end(bytes);
      return;
    }

    const query = Object.fromEntries(requestUrl.searchParams);
    const route = requestUrl.pathname.slice('/v1/'.length);
    requests.push({ path: route, query });
    if (query.api_key !== 'test-key') {
      send(401, { message: 'Unauthorized' });
      return;
    }

    const segments = route.split('/');
    const [first, second, third, fourth] = segments;
    if (first && pools[first] && second === 'trending') {
      send(200, listEnvelope(pools[first], query));
    } else if (first && pools[first] && second === 'search') {
      const found = pools[first].filter((item) => matches(item, query.q ?? ''));
      send(200, listEnvelope(found, query));
    } else if ((first === 'gifs' || first === 'stickers') && second === 'related') {
      const item = byId.get(query.gif_id ?? '');
      if (!item) send(404, errorEnvelope(404, 'Not Found'));
      // Like GIPHY, the item itself comes first: the app skips it.
      else
        send(200, listEnvelope([item, ...pools[first]!.filter((other) => other !== item)], query));
    } else if (route === 'gifs') {
      const ids = (query.ids ?? '').split(',').filter(Boolean);
      send(200, listEnvelope(ids.map((id) => byId.get(id)).filter(Boolean) as Json[], query, 100));
    } else if (first === 'gifs' && second === 'categories' && !third) {
      send(200, listEnvelope(categories, query, 100));
    } else if (first === 'gifs' && second === 'categories' && third && !fourth) {
      const category = categories.find((entry) => entry.name_encoded === third);
      if (!category) send(404, errorEnvelope(404, 'Not Found'));
      else send(200, listEnvelope(category.subcategories as Json[], query, 100));
    } else if (first === 'gifs' && second === 'categories' && third && fourth) {
      const list = categoryItems[`${third}/${fourth}`];
      if (!list) send(404, errorEnvelope(404, 'Not Found'));
      else send(200, listEnvelope(list, query));
    } else if (first === 'gifs' && second && !third) {
      const item = byId.get(second);
      if (!item) send(404, errorEnvelope(404, 'Not Found'));
      else send(200, { data: item, meta: listEnvelope([], {}).meta });
    } else {
      send(404, errorEnvelope(404, 'Not Found'));
    }
  });

  return {
    url,
    requests,
    items: { gifs, stickers, text },
    categories,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

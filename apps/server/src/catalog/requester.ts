import { createHash, createHmac } from 'node:crypto';
import type { AppConfig } from '../config/env.ts';
import { groupAddress } from '../lib/address-group.ts';

/**
 * Who asked, as the catalog counts people (trending searches, the animated-text quota): a
 * signed-in person, or an app's api_key from one address (docs/security.md, "Rate limits and
 * quotas").
 */
export interface Requester {
  userId?: string | null;
  apiKey?: string | null;
  address: string;
  /**
   * False for a signed-in browser sent here by another site (a link, an image): it may read
   * what exists, never make the server draw new phrases in that person's name.
   */
  mayRender?: boolean;
}

/** Where an `Origin` or `Referer` says the request comes from; null when it names no origin. */
function readOrigin(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  try {
    const origin = new URL(text ?? '').origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** An HTTP request (Fastify's, structurally: the domain knows no framework). */
interface RequestLike {
  user: { id: string } | null;
  apiKey?: string | null;
  ip: string;
  protocol: string;
  /** The host the request names (with its port). */
  host: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Whether another site sent this request. Browsers that send `Sec-Fetch-Site` say so
 * themselves (no page can set it); for the others (older browsers, a client that drops it), an
 * `Origin` or `Referer` that is not ours (`"null"`, another host) says so (docs/security.md,
 * "Cross-site rules").
 */
export function isFromAnotherSite(
  request: Pick<RequestLike, 'protocol' | 'host' | 'headers'>,
  config: Pick<AppConfig, 'publicUrl'>,
): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'cross-site';
  const ours = [new URL(config.publicUrl).origin, `${request.protocol}://${request.host}`];
  return (['origin', 'referer'] as const).some((name) => {
    const value = request.headers[name];
    if (value === undefined) return false;
    const origin = readOrigin(value);
    return origin === null || !ours.includes(origin);
  });
}

/** The requester of an HTTP request to the app whose PUBLIC_URL is `config.publicUrl`. */
export function requesterOf(request: RequestLike, config: Pick<AppConfig, 'publicUrl'>): Requester {
  // A session rides along on a cross-site navigation; an app's key is given on purpose.
  const isCrossSiteSession =
    Boolean(request.user) && !request.apiKey && isFromAnotherSite(request, config);
  return {
    userId: request.user?.id ?? null,
    apiKey: request.apiKey ?? null,
    // Quotas count an IPv6 home by its /64, like the rate limits (docs/security.md, "Rate limits
    // and quotas").
    address: groupAddress(request.ip),
    mayRender: !isCrossSiteSession,
  };
}

function identityOf(requester: Requester): string {
  if (requester.userId) return `user:${requester.userId}`;
  if (requester.apiKey) {
    const key = createHash('sha256').update(requester.apiKey).digest('base64url');
    return `key:${key}|${requester.address}`;
  }
  return `address:${requester.address}`;
}

/**
 * A name for one person that is stored instead of their id, key or address: keyed (HMAC) with
 * the app's secret, so a stored digest cannot be matched to an address by trying them all.
 */
export function digestRequester(secret: string, requester: Requester, purpose: string): string {
  return createHmac('sha256', secret)
    .update(`${purpose}|${identityOf(requester)}`)
    .digest('base64url')
    .slice(0, 22);
}

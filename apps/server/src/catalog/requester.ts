import { createHash, createHmac } from 'node:crypto';

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

/** The requester of an HTTP request (Fastify's, structurally: the domain knows no framework). */
export function requesterOf(request: {
  user: { id: string } | null;
  apiKey?: string | null;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}): Requester {
  // A session rides along on a cross-site navigation; an app's key is given on purpose.
  const isCrossSiteSession =
    Boolean(request.user) && !request.apiKey && request.headers['sec-fetch-site'] === 'cross-site';
  return {
    userId: request.user?.id ?? null,
    apiKey: request.apiKey ?? null,
    address: request.ip,
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

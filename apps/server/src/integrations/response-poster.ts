/** Logs what matters of an outgoing post: never its URL (a response_url is a credential). */
export interface PostLog {
  warn: (fields: Record<string, unknown>, message: string) => void;
}

/** A post to a platform gets this long before it is dropped: the platform's reply budget is 3 s. */
const postTimeoutMs = 2_500;

/**
 * Whether `url` may be called: https on an allowed host, or http on a loopback host that is
 * allowed (a test's fake platform, a Mattermost on the same machine).
 */
export function isAllowedUrl(url: string, isAllowedHost: (parsed: URL) => boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  const isLoopback = /^(127\.|localhost$|\[::1\]$)/.test(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopback)) return false;
  return isAllowedHost(parsed);
}

/**
 * POSTs JSON to a platform (a response_url, Discord's webhook API) and says whether it was
 * accepted. Failures are logged with the platform and status only.
 */
export async function postToPlatform(
  log: PostLog,
  platform: string,
  request: {
    url: string;
    method?: 'POST' | 'PATCH' | 'PUT';
    body: unknown;
    headers?: Record<string, string>;
  },
): Promise<boolean> {
  try {
    const response = await fetch(request.url, {
      method: request.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      redirect: 'error',
      signal: AbortSignal.timeout(postTimeoutMs),
    });
    await response.body?.cancel();
    if (!response.ok) {
      log.warn({ platform, status: response.status }, 'The chat platform refused a post');
    }
    return response.ok;
  } catch (error) {
    log.warn({ platform, error: (error as Error).name }, 'A post to the chat platform failed');
    return false;
  }
}

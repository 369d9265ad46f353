import { CookieJar } from 'tough-cookie';

export interface BrowserResponse {
  url: string;
  status: number;
  headers: Headers;
  body: string;
  /** Every `Set-Cookie` header of this response, as sent. */
  setCookies: string[];
  /** Absolute URL of the `Location` header, if any. */
  location: string | undefined;
}

export interface NavigateResult {
  /** The last response fetched. */
  last: BrowserResponse;
  /** Every response on the way, in order. */
  hops: BrowserResponse[];
  /** Where the chain ended: the last URL fetched, or the redirect target not followed. */
  url: string;
}

export interface NavigateOptions {
  /** A redirect target for which this returns instead of fetching it (e.g. the SPA). */
  stopAt?: (url: URL) => boolean;
  maxHops?: number;
}

/**
 * A scripted browser for server tests: real HTTP over fetch, a cookie jar that keeps cookies
 * per host and path like a browser does, redirects followed one hop at a time so each can
 * be inspected.
 */
export class TestBrowser {
  readonly jar = new CookieJar();

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<BrowserResponse> {
    const headers = new Headers(init.headers);
    const cookie = await this.jar.getCookieString(url);
    if (cookie && !headers.has('cookie')) headers.set('cookie', cookie);
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    const setCookies = response.headers.getSetCookie();
    for (const setCookie of setCookies) {
      await this.jar.setCookie(setCookie, url, { ignoreError: true });
    }
    const location = response.headers.get('location');
    return {
      url,
      status: response.status,
      headers: response.headers,
      body: await response.text(),
      setCookies,
      location: location ? new URL(location, url).href : undefined,
    };
  }

  /** Fetches `url` and follows redirects, like a top-level navigation. */
  async navigate(
    url: string,
    init: { form?: Record<string, string> } = {},
    options: NavigateOptions = {},
  ): Promise<NavigateResult> {
    const hops: BrowserResponse[] = [];
    let next: string | undefined = url;
    let form = init.form;
    while (next) {
      if (hops.length >= (options.maxHops ?? 10)) throw new Error(`too many redirects at ${next}`);
      const response = await this.request(next, { form });
      form = undefined;
      hops.push(response);
      const isRedirect = response.status >= 300 && response.status < 400 && response.location;
      if (!isRedirect) return { last: response, hops, url: response.url };
      next = response.location!;
      if (options.stopAt?.(new URL(next))) return { last: response, hops, url: next };
    }
    throw new Error('unreachable');
  }

  async cookieValue(url: string, name: string): Promise<string | undefined> {
    const cookies = await this.jar.getCookies(url);
    return cookies.find((cookie) => cookie.key === name)?.value;
  }
}

/** Reads a server-rendered form: where it posts and the values of its inputs. */
export function readForm(
  html: string,
  baseUrl: string,
): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*\saction="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('no form on the page');
  const fields: Record<string, string> = {};
  for (const input of html.matchAll(/<input\b[^>]*>/g)) {
    const name = /\sname="([^"]*)"/.exec(input[0])?.[1];
    const value = /\svalue="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[name] = decodeEntities(value);
  }
  return { action: new URL(decodeEntities(action), baseUrl).href, fields };
}

function decodeEntities(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

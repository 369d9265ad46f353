/**
 * The Mozilla HTTP Observatory's scoring (algorithm of `@mdn/mdn-http-observatory` 1.4, its
 * analyzer/tests and grader/charts), for one response. That package cannot be a dependency
 * here: it installs only with scripts disabled, needs ports 80/443 and pulls in a database
 * driver; bench/stress/observatory.ts runs the real one when it is installed. This keeps the
 * same rules and the same score modifiers, so a header regression fails `npm test`.
 */

export interface ObservedResponse {
  headers: Record<string, string | string[] | number | undefined>;
  /** The HTML, for `<meta http-equiv>` and `<script>` checks; '' for other types. */
  body: string;
}

export interface ObservatoryInput {
  page: ObservedResponse;
  /** The answer to `OPTIONS page` with `Origin: https://http-observatory.security.mozilla.org`. */
  preflight?: ObservedResponse;
  /** Served over https (behind the TLS proxy a deployment puts in front). */
  isHttps: boolean;
  /** What the front proxy does with plain http: redirect to https on the same host. */
  redirection: 'to-https' | 'missing';
}

export interface ObservatoryResult {
  score: number;
  grade: string;
  /** Test name → expectation id, as the Observatory reports them. */
  results: Record<string, string>;
}

const modifiers: Record<string, number> = {
  'csp-implemented-with-no-unsafe-default-src-none': 10,
  'csp-implemented-with-no-unsafe': 5,
  'csp-implemented-with-unsafe-inline-in-style-src-only': 0,
  'csp-implemented-with-insecure-scheme-in-passive-content-only': -10,
  'csp-implemented-with-unsafe-eval': -10,
  'csp-implemented-with-unsafe-inline': -20,
  'csp-implemented-with-insecure-scheme': -20,
  'csp-header-invalid': -25,
  'csp-not-implemented': -25,
  'csp-implemented-but-duplicate-directives': 0,
  'cookies-secure-with-httponly-sessions-and-samesite': 5,
  'cookies-secure-with-httponly-sessions': 0,
  'cookies-not-found': 0,
  'cookies-without-secure-flag-but-protected-by-hsts': -5,
  'cookies-session-without-secure-flag-but-protected-by-hsts': -10,
  'cookies-without-secure-flag': -20,
  'cookies-samesite-flag-invalid': -20,
  'cookies-session-without-httponly-flag': -30,
  'cookies-session-without-secure-flag': -40,
  'cross-origin-resource-sharing-not-implemented': 0,
  'cross-origin-resource-sharing-implemented-with-public-access': 0,
  'cross-origin-resource-sharing-implemented-with-restricted-access': 0,
  'cross-origin-resource-sharing-implemented-with-universal-access': -50,
  'redirection-to-https': 0,
  'redirection-missing': -20,
  'referrer-policy-private': 5,
  'referrer-policy-not-implemented': 0,
  'referrer-policy-unsafe': -5,
  'referrer-policy-header-invalid': -5,
  'hsts-implemented-max-age-at-least-six-months': 0,
  'hsts-implemented-max-age-less-than-six-months': -10,
  'hsts-not-implemented': -20,
  'hsts-header-invalid': -20,
  'hsts-not-implemented-no-https': -20,
  'sri-implemented-and-all-scripts-loaded-securely': 5,
  'sri-not-implemented-response-not-html': 0,
  'sri-not-implemented-but-no-scripts-loaded': 0,
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': 0,
  'sri-not-implemented-but-external-scripts-loaded-securely': -5,
  'sri-not-implemented-and-external-scripts-not-loaded-securely': -50,
  'x-content-type-options-nosniff': 0,
  'x-content-type-options-not-implemented': -5,
  'x-content-type-options-header-invalid': -5,
  'x-frame-options-implemented-via-csp': 5,
  'x-frame-options-sameorigin-or-deny': 0,
  'x-frame-options-not-implemented': -20,
  'x-frame-options-header-invalid': -20,
  'corp-header-invalid': -5,
  'corp-implemented-with-cross-origin': 0,
  'corp-implemented-with-same-origin': 10,
  'corp-implemented-with-same-site': 10,
  'corp-not-implemented': 0,
};

const gradeChart: Array<[number, string]> = [
  [100, 'A+'],
  [90, 'A'],
  [85, 'A-'],
  [80, 'B+'],
  [70, 'B'],
  [65, 'B-'],
  [60, 'C+'],
  [50, 'C'],
  [45, 'C-'],
  [40, 'D+'],
  [30, 'D'],
  [25, 'D-'],
  [0, 'F'],
];

const DANGEROUSLY_BROAD = new Set([
  'ftp:',
  'http:',
  'https:',
  '*',
  'http://*',
  'http://*.*',
  'https://*',
  'https://*.*',
]);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, "'unsafe-inline'", 'data:']);
const SIX_MONTHS = 15_768_000;

function headerValues(response: ObservedResponse | undefined, name: string): string[] {
  const value = response?.headers[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [String(value)]).map(String);
}

function metaEquiv(body: string, name: string): string[] {
  const found: string[] = [];
  for (const match of body.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = match[0];
    const equiv = /http-equiv\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
    const content = /content\s*=\s*"([^"]*)"|content\s*=\s*'([^']*)'/i.exec(tag);
    if (equiv?.toLowerCase() === name && content) found.push(content[1] ?? content[2] ?? '');
  }
  return found;
}

/** `{directive → sources}`; throws on an empty policy, like the Observatory's parser. */
export function parseCsp(policies: string[]): {
  directives: Map<string, Set<string>>;
  duplicates: boolean;
} {
  const directives = new Map<string, Set<string>>();
  let duplicates = false;
  for (const policy of policies) {
    for (const part of policy.split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (!name) continue;
      const directive = name.toLowerCase();
      if (directives.has(directive)) {
        duplicates = true;
        continue;
      }
      directives.set(directive, new Set(sources.map((source) => source.toLowerCase())));
    }
  }
  if (directives.size === 0) throw new Error('empty policy');
  return { directives, duplicates };
}

function cspResult(input: ObservatoryInput): { result: string; hasFrameAncestors: boolean } {
  const header = headerValues(input.page, 'content-security-policy');
  const meta = metaEquiv(input.page.body, 'content-security-policy');
  if (header.length + meta.length === 0) {
    return { result: 'csp-not-implemented', hasFrameAncestors: false };
  }
  let parsed: ReturnType<typeof parseCsp>;
  try {
    parsed = parseCsp([...header, ...meta]);
  } catch {
    return { result: 'csp-header-invalid', hasFrameAncestors: false };
  }
  const csp = parsed.directives;
  const fallback = (name: string) => csp.get(name) ?? csp.get('default-src') ?? new Set(['*']);
  const scriptSrc = fallback('script-src');
  const styleSrc = fallback('style-src');
  const objectSrc = fallback('object-src');
  for (const list of [scriptSrc, styleSrc]) {
    const hasNonceOrHash = [...list].some((source) =>
      /^'(sha256-|sha384-|sha512-|nonce-)/.test(source),
    );
    if (hasNonceOrHash) list.delete("'unsafe-inline'");
  }
  const passive = new Set(['img-src', 'media-src']);
  const active = [...csp.entries()]
    .filter(([name]) => !passive.has(name) && name !== 'script-src')
    .flatMap(([, list]) => [...list])
    .concat([...scriptSrc]);
  const passiveSources = [...passive].flatMap((name) => [
    ...(csp.get(name) ?? csp.get('default-src') ?? []),
  ]);
  const isInsecure = (source: string) => source.startsWith('http:') || source.startsWith('ftp:');

  let result: string | undefined;
  if (
    [...scriptSrc].some((source) => BROAD_OR_INLINE.has(source)) ||
    [...objectSrc].some((source) => DANGEROUSLY_BROAD.has(source))
  ) {
    result = 'csp-implemented-with-unsafe-inline';
  } else if (input.isHttps && active.some(isInsecure)) {
    result = 'csp-implemented-with-insecure-scheme';
  } else if (new Set([...scriptSrc, ...styleSrc]).has("'unsafe-eval'")) {
    result = 'csp-implemented-with-unsafe-eval';
  } else if (input.isHttps && passiveSources.some(isInsecure)) {
    result = 'csp-implemented-with-insecure-scheme-in-passive-content-only';
  } else if ([...styleSrc].some((source) => BROAD_OR_INLINE.has(source))) {
    result = 'csp-implemented-with-unsafe-inline-in-style-src-only';
  } else if (csp.get('default-src')?.has("'none'") && csp.get('default-src')?.size === 1) {
    result = 'csp-implemented-with-no-unsafe-default-src-none';
  } else {
    result = 'csp-implemented-with-no-unsafe';
  }
  if (parsed.duplicates) result = 'csp-implemented-but-duplicate-directives';
  const headerOnly = header.length > 0 ? parseCsp(header).directives : new Map();
  return { result, hasFrameAncestors: headerOnly.has('frame-ancestors') };
}

function hstsResult(input: ObservatoryInput): string {
  if (!input.isHttps) return 'hsts-not-implemented-no-https';
  const [header] = headerValues(input.page, 'strict-transport-security');
  if (!header) return 'hsts-not-implemented';
  if (header.includes(',')) return 'hsts-header-invalid';
  const maxAge = /max-age=(\d+)/i.exec(header)?.[1];
  if (maxAge === undefined) return 'hsts-header-invalid';
  return Number(maxAge) < SIX_MONTHS
    ? 'hsts-implemented-max-age-less-than-six-months'
    : 'hsts-implemented-max-age-at-least-six-months';
}

function cookiesResult(input: ObservatoryInput, isHstsOk: boolean): string {
  const cookies = headerValues(input.page, 'set-cookie');
  if (cookies.length === 0) return 'cookies-not-found';
  const order = [
    'cookies-session-without-secure-flag',
    'cookies-session-without-httponly-flag',
    'cookies-samesite-flag-invalid',
    'cookies-without-secure-flag',
    'cookies-session-without-secure-flag-but-protected-by-hsts',
    'cookies-without-secure-flag-but-protected-by-hsts',
  ];
  let worst: string | undefined;
  const note = (result: string) => {
    if (worst === undefined || order.indexOf(result) < order.indexOf(worst)) worst = result;
  };
  let isSameSiteEverywhere = true;
  for (const cookie of cookies) {
    const [pair = '', ...attributes] = cookie.split(';').map((part) => part.trim());
    const name = pair.split('=')[0]!.toLowerCase();
    const flags = attributes.map((attribute) => attribute.toLowerCase());
    const isSecure = flags.includes('secure');
    const isHttpOnly = flags.includes('httponly');
    const sameSite = flags.find((flag) => flag.startsWith('samesite='))?.slice(9);
    const isSession = name.includes('login') || name.includes('sess');
    if (sameSite !== undefined && !['strict', 'lax', 'none'].includes(sameSite)) {
      note('cookies-samesite-flag-invalid');
    }
    if (!isSecure && sameSite === 'none') note('cookies-samesite-flag-invalid');
    if (!isSecure) {
      note(
        isHstsOk
          ? 'cookies-without-secure-flag-but-protected-by-hsts'
          : 'cookies-without-secure-flag',
      );
    }
    if (isSession && !isSecure) {
      note(
        isHstsOk
          ? 'cookies-session-without-secure-flag-but-protected-by-hsts'
          : 'cookies-session-without-secure-flag',
      );
    }
    if (isSession && !isHttpOnly) note('cookies-session-without-httponly-flag');
    if (sameSite === undefined) isSameSiteEverywhere = false;
  }
  if (worst) return worst;
  return isSameSiteEverywhere
    ? 'cookies-secure-with-httponly-sessions-and-samesite'
    : 'cookies-secure-with-httponly-sessions';
}

function corsResult(input: ObservatoryInput): string {
  const [allowOrigin] = headerValues(input.preflight, 'access-control-allow-origin');
  if (!allowOrigin) return 'cross-origin-resource-sharing-not-implemented';
  if (allowOrigin.trim() === '*') {
    return 'cross-origin-resource-sharing-implemented-with-public-access';
  }
  const [credentials] = headerValues(input.preflight, 'access-control-allow-credentials');
  return allowOrigin === 'https://http-observatory.security.mozilla.org' && credentials === 'true'
    ? 'cross-origin-resource-sharing-implemented-with-universal-access'
    : 'cross-origin-resource-sharing-implemented-with-restricted-access';
}

function referrerResult(input: ObservatoryInput): string {
  const good = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
  const bad = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];
  const values = [
    ...headerValues(input.page, 'referrer-policy'),
    ...metaEquiv(input.page.body, 'referrer-policy'),
  ];
  if (values.length === 0) return 'referrer-policy-not-implemented';
  const policy = values
    .join(',')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => good.includes(part) || bad.includes(part))
    .reverse()[0];
  if (policy && good.includes(policy)) return 'referrer-policy-private';
  if (policy && bad.includes(policy)) return 'referrer-policy-unsafe';
  return 'referrer-policy-header-invalid';
}

function sriResult(input: ObservatoryInput): string {
  const [contentType = ''] = headerValues(input.page, 'content-type');
  if (!contentType.includes('html')) return 'sri-not-implemented-response-not-html';
  const scripts = [
    ...input.page.body.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)[^>]*>/gi),
  ];
  if (scripts.length === 0) return 'sri-not-implemented-but-no-scripts-loaded';
  let isAllSameOrigin = true;
  let isAllIntegrity = true;
  let isAllSecure = true;
  for (const [tag, src = ''] of scripts) {
    const isRelative = !/^([a-z]+:)?\/\//i.test(src);
    if (!isRelative) isAllSameOrigin = false;
    if (!/\bintegrity\s*=/.test(tag)) isAllIntegrity = false;
    if (/^http:|^\/\//i.test(src) && !input.isHttps) isAllSecure = false;
  }
  if (isAllSameOrigin) {
    return isAllIntegrity
      ? 'sri-implemented-and-all-scripts-loaded-securely'
      : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin';
  }
  if (!isAllIntegrity) {
    return isAllSecure
      ? 'sri-not-implemented-but-external-scripts-loaded-securely'
      : 'sri-not-implemented-and-external-scripts-not-loaded-securely';
  }
  return 'sri-implemented-and-all-scripts-loaded-securely';
}

function contentTypeOptionsResult(input: ObservatoryInput): string {
  const [value] = headerValues(input.page, 'x-content-type-options');
  if (value === undefined) return 'x-content-type-options-not-implemented';
  return value.trim().toLowerCase() === 'nosniff'
    ? 'x-content-type-options-nosniff'
    : 'x-content-type-options-header-invalid';
}

function frameOptionsResult(input: ObservatoryInput, hasFrameAncestors: boolean): string {
  if (hasFrameAncestors) return 'x-frame-options-implemented-via-csp';
  const [value] = headerValues(input.page, 'x-frame-options');
  if (value === undefined) return 'x-frame-options-not-implemented';
  return ['deny', 'sameorigin'].includes(value.trim().toLowerCase())
    ? 'x-frame-options-sameorigin-or-deny'
    : 'x-frame-options-header-invalid';
}

function corpResult(input: ObservatoryInput): string {
  const [value] = headerValues(input.page, 'cross-origin-resource-policy');
  if (value === undefined) return 'corp-not-implemented';
  const policy = value.trim().toLowerCase();
  if (policy === 'same-site') return 'corp-implemented-with-same-site';
  if (policy === 'same-origin') return 'corp-implemented-with-same-origin';
  if (policy === 'cross-origin') return 'corp-implemented-with-cross-origin';
  return 'corp-header-invalid';
}

/** The Observatory's score and grade for one page. */
export function gradeResponse(input: ObservatoryInput): ObservatoryResult {
  const csp = cspResult(input);
  const hsts = hstsResult(input);
  const isHstsOk = hsts === 'hsts-implemented-max-age-at-least-six-months';
  const results: Record<string, string> = {
    'content-security-policy': csp.result,
    cookies: cookiesResult(input, isHstsOk),
    'cross-origin-resource-sharing': corsResult(input),
    redirection: input.redirection === 'to-https' ? 'redirection-to-https' : 'redirection-missing',
    'referrer-policy': referrerResult(input),
    'strict-transport-security': hsts,
    'subresource-integrity': sriResult(input),
    'x-content-type-options': contentTypeOptionsResult(input),
    'x-frame-options': frameOptionsResult(input, csp.hasFrameAncestors),
    'cross-origin-resource-policy': corpResult(input),
  };
  let withExtraCredit = 100;
  let uncurved = 100;
  for (const result of Object.values(results)) {
    const modifier = modifiers[result];
    if (modifier === undefined) throw new Error(`no score for ${result}`);
    withExtraCredit += modifier;
    if (modifier < 0) uncurved += modifier;
  }
  // Extra credit counts only when the page already earns an A without it.
  const score = Math.max(0, uncurved >= 90 ? withExtraCredit : uncurved);
  const grade = gradeChart.find(([minimum]) => Math.min(score, 100) >= minimum)![1];
  return { score, grade, results };
}

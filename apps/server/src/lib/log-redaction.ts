/**
 * What never reaches a log line (docs/security.md, "Logs"): secrets carried in query strings
 * (an app's `api_key`, Tenor's `key`, OAuth's `code` and `state`, tokens) and whole email
 * addresses.
 */
const secretParams = new Set([
  'api_key',
  'key',
  'code',
  'state',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'session_state',
]);

/** A request URL with the values of secret parameters replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A broken escape is logged as it came, unless it names a secret.
      }
      return secretParams.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** `jane@example.com` → `j***@example.com`: enough to tell cases apart, not to name anyone. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** Every email address in a text, masked. */
export function maskEmails(text: string): string {
  return text.replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g, (email) =>
    maskEmail(email),
  );
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Pino serializers for the server's logs: Fastify's request fields, the URL redacted. */
export const logSerializers = {
  req(request: LoggedRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url ?? ''),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

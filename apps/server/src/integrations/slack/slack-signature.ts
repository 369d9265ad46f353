import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack refuses requests older than this; so do we, against replays. */
export const maxRequestAgeSeconds = 5 * 60;

/**
 * Slack's request signing (docs/integrations.md, "Verification"): `v0=` and the hex
 * HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` keyed with the app's signing secret,
 * compared in constant time, the timestamp within five minutes of now.
 */
export function isSlackRequestSigned(
  signingSecret: string,
  request: { timestamp: string; signature: string; body: Buffer },
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!/^\d{1,12}$/.test(request.timestamp)) return false;
  if (Math.abs(nowSeconds - Number(request.timestamp)) > maxRequestAgeSeconds) return false;
  const expected = Buffer.from(signSlackRequest(signingSecret, request.timestamp, request.body));
  const given = Buffer.from(request.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `X-Slack-Signature` of a request (also what the tests' fake Slack signs with). */
export function signSlackRequest(signingSecret: string, timestamp: string, body: Buffer): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(body);
  return `v0=${hmac.digest('hex')}`;
}

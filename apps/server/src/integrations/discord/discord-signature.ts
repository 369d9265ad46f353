import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it. */
const ed25519SpkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');

/** Discord's application public key (64 hex digits) as a key node:crypto verifies with. */
export function readDiscordPublicKey(hex: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ed25519SpkiPrefix, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/** Older requests are refused as replays: Discord's are answered within seconds. */
const maxRequestAgeSeconds = 5 * 60;

/**
 * Discord's request signing (docs/integrations.md, "Verification"): `X-Signature-Ed25519` is the
 * Ed25519 signature of `X-Signature-Timestamp` followed by the raw body, checked with the
 * application's public key (node:crypto's Ed25519).
 */
export function isDiscordRequestSigned(
  publicKey: KeyObject,
  request: { timestamp: string; signature: string; body: Buffer },
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!/^\d{1,12}$/.test(request.timestamp)) return false;
  if (Math.abs(nowSeconds - Number(request.timestamp)) > maxRequestAgeSeconds) return false;
  if (!/^[0-9a-f]{128}$/i.test(request.signature)) return false;
  return verify(
    null,
    Buffer.concat([Buffer.from(request.timestamp), request.body]),
    publicKey,
    Buffer.from(request.signature, 'hex'),
  );
}

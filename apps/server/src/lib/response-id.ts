import { randomBytes } from 'node:crypto';

/** GIPHY-style response id; the SDK rejects any success without a non-empty one. */
export function createResponseId(): string {
  return randomBytes(20).toString('hex');
}

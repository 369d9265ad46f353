import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from '../config/env.ts';

/** How long a sign-in may take between leaving for the issuer and coming back. */
export const FLOW_TTL_MS = 10 * 60 * 1000;

const signInFlowSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(1),
  returnTo: z.string().startsWith('/'),
  expiresAt: z.number(),
});

/** What the callback needs to check the issuer's answer, kept in the browser meanwhile. */
export type SignInFlow = z.infer<typeof signInFlowSchema>;

export type FlowReadResult =
  | { status: 'ok'; flow: SignInFlow }
  | { status: 'missing' }
  | { status: 'tampered' }
  | { status: 'expired' };

export function flowCookieName(config: AppConfig): string {
  return config.isHttps ? '__Host-sticky_signin' : 'sticky_signin';
}

function flowCookieOptions(config: AppConfig) {
  // Lax, not Strict: the issuer sends the browser back with a top-level cross-site GET.
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: config.isHttps,
  };
}

/** Signed (SESSION_SECRET) so the state, nonce and verifier cannot be swapped by anyone else. */
export function setFlowCookie(reply: FastifyReply, config: AppConfig, flow: SignInFlow): void {
  const value = Buffer.from(JSON.stringify(flow)).toString('base64url');
  reply.setCookie(flowCookieName(config), value, {
    ...flowCookieOptions(config),
    maxAge: FLOW_TTL_MS / 1000,
    signed: true,
  });
}

/** A flow cookie is good for one callback, whatever its outcome. */
export function clearFlowCookie(reply: FastifyReply, config: AppConfig): void {
  reply.clearCookie(flowCookieName(config), flowCookieOptions(config));
}

export function hasFlowCookie(request: FastifyRequest, config: AppConfig): boolean {
  return Boolean(request.cookies[flowCookieName(config)]);
}

export function readFlowCookie(request: FastifyRequest, config: AppConfig): FlowReadResult {
  const raw = request.cookies[flowCookieName(config)];
  if (!raw) return { status: 'missing' };
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return { status: 'tampered' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8'));
  } catch {
    return { status: 'tampered' };
  }
  const flow = signInFlowSchema.safeParse(parsed);
  if (!flow.success) return { status: 'tampered' };
  // The browser drops the cookie on time; this also refuses one kept or replayed past it.
  if (flow.data.expiresAt <= Date.now()) return { status: 'expired' };
  return { status: 'ok', flow: flow.data };
}

import { meResponseFirstScreenSchema, sessionElementId } from '@sticky/contracts/first-screen';
import type { SessionUser } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client.ts';
import { takeCarriedData } from '@/lib/carried-data.ts';

export const meQueryKey = ['auth', 'me'] as const;

/**
 * `GET /api/auth/me`: the signed-in user, or null. A failed session check is silent
 * and the visitor is treated as signed out. Checked by the contract's zod-free checker: every
 * screen waits for this answer, and all of zod would be most of the first screen's app code.
 */
export async function fetchMe(signal?: AbortSignal): Promise<SessionUser | null> {
  try {
    const answer = await apiGet('/api/auth/me', meResponseFirstScreenSchema, {
      signal,
      acceptStatuses: [401],
    });
    return answer.success ? answer.user : null;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.warn('Session check failed; continuing signed out.', error);
    return null;
  }
}

/**
 * The session the page's HTML carries for a signed-in request (docs/web.md, "First page"): the
 * user `GET /api/auth/me` would answer, read with the same checker. Taken out of the document
 * at the first read, so it stands only for the page's start: later checks ask the server.
 * Anything unreadable is ignored, and the server asked.
 */
export function takeCarriedSession(): SessionUser | undefined {
  const parsed = meResponseFirstScreenSchema.safeParse(takeCarriedData(sessionElementId));
  return parsed.success && parsed.data.success ? parsed.data.user : undefined;
}

export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: ({ signal }) => fetchMe(signal),
  staleTime: 5 * 60_000,
  retry: false,
  // Coming back to the tab after a while re-checks the session (it may have ended elsewhere).
  refetchOnWindowFocus: true,
});

import type { LogoutResponse } from '@sticky/contracts';
import { apiPost } from '@/lib/api-client.ts';

/** `POST /api/auth/logout` (no body): ends the session server-side. */
export function postLogout(): Promise<LogoutResponse> {
  return apiPost(
    '/api/auth/logout',
    undefined,
    import('@sticky/contracts').then((module) => module.logoutResponseSchema),
  );
}

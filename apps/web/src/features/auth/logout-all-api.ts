import type { LogoutResponse } from '@sticky/contracts';
import { apiPost } from '@/lib/api-client.ts';

/** `POST /api/auth/logout-all` (no body): ends every session of the signed-in person. */
export function postLogoutAll(): Promise<LogoutResponse> {
  return apiPost(
    '/api/auth/logout-all',
    undefined,
    import('@sticky/contracts').then((module) => module.logoutResponseSchema),
  );
}

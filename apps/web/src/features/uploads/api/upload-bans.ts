import {
  liftUploadBanResponseSchema,
  listUploadBansResponseSchema,
  uploadBanResponseSchema,
} from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPut } from '@/lib/api-client.ts';

export const uploadBansQueryKey = ['admin', 'upload-bans'] as const;

/** `GET /api/admin/upload-bans`: people stopped from uploading. */
export const uploadBansQueryOptions = () =>
  queryOptions({
    queryKey: uploadBansQueryKey,
    queryFn: async ({ signal }) =>
      (await apiGet('/api/admin/upload-bans', listUploadBansResponseSchema, { signal })).bans,
  });

/** `PUT /api/admin/upload-bans/{userId}`: stop a person's uploads, with the reason they see. */
export function banUploader(userId: string, reason: string) {
  return apiPut(
    `/api/admin/upload-bans/${encodeURIComponent(userId)}`,
    { reason },
    uploadBanResponseSchema,
  );
}

/** `DELETE /api/admin/upload-bans/{userId}`: let them upload again. */
export function liftUploadBan(userId: string) {
  return apiDelete(
    `/api/admin/upload-bans/${encodeURIComponent(userId)}`,
    liftUploadBanResponseSchema,
  );
}

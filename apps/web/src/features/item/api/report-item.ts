import { createReportResponseSchema } from '@sticky/contracts';
import type { CreateReportRequest, CreateReportResponse } from '@sticky/contracts';
import { apiPost } from '@/lib/api-client.ts';

/** `POST /api/items/{id}/reports`: tells the admins what is wrong with an item. */
export function reportItem(id: string, report: CreateReportRequest): Promise<CreateReportResponse> {
  return apiPost(
    `/api/items/${encodeURIComponent(id)}/reports`,
    report,
    createReportResponseSchema,
  );
}

import {
  deleteCategoryResponseSchema,
  listManagedCategoriesResponseSchema,
  managedCategoryResponseSchema,
} from '@sticky/contracts';
import type { CreateCategoryRequest } from '@sticky/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPost } from '@/lib/api-client.ts';

export const categoriesQueryKey = ['categories'] as const;

/** `GET /api/categories`: every category, to file an item under. */
export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: categoriesQueryKey,
    queryFn: async ({ signal }) =>
      (await apiGet('/api/categories', listManagedCategoriesResponseSchema, { signal })).categories,
    staleTime: 60_000,
  });

/** `POST /api/admin/categories` (admins). */
export function createCategory(request: CreateCategoryRequest) {
  return apiPost('/api/admin/categories', request, managedCategoryResponseSchema);
}

/** `PATCH /api/admin/categories/{id}` (admins). */
export function renameCategory(id: number, name: string) {
  return apiPatch(`/api/admin/categories/${id}`, { name }, managedCategoryResponseSchema);
}

/** `DELETE /api/admin/categories/{id}` (admins): its items stay, uncategorized. */
export function deleteCategory(id: number) {
  return apiDelete(`/api/admin/categories/${id}`, deleteCategoryResponseSchema);
}

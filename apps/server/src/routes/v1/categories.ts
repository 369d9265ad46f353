import { categoriesParamsSchema, categoryItemsParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  listCategories,
  listCategoryItems,
  listSubcategories,
} from '../../catalog/query/categories.ts';
import { serializeItems } from '../../catalog/query/serialize.ts';
import { v1RateLimit } from './access.ts';
import { listEnvelope, parseParams } from './envelope.ts';

/** `gifs/categories`, `gifs/categories/{category}`, `gifs/categories/{category}/{subcategory}`. */
export const categoryRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;
  const routeOptions = { config: v1RateLimit };

  app.get('/gifs/categories', routeOptions, async (request) => {
    const params = parseParams(categoriesParamsSchema, request.query);
    const page = await listCategories(deps, params);
    return listEnvelope(page.rows, page.totalCount, params.offset);
  });

  app.get<{ Params: { category: string } }>(
    '/gifs/categories/:category',
    routeOptions,
    async (request) => {
      const params = parseParams(categoriesParamsSchema, request.query);
      const page = await listSubcategories(deps, request.params.category, params);
      return listEnvelope(page.rows, page.totalCount, params.offset);
    },
  );

  app.get<{ Params: { category: string; subcategory: string } }>(
    '/gifs/categories/:category/:subcategory',
    routeOptions,
    async (request) => {
      const params = parseParams(categoryItemsParamsSchema, request.query);
      const { category, subcategory } = request.params;
      const page = await listCategoryItems(deps, category, subcategory, params);
      return listEnvelope(await serializeItems(deps, page.rows), page.totalCount, params.offset);
    },
  );
};

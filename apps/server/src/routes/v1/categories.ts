import { categoriesParamsSchema, categoryItemsParamsSchema } from '@sticky/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  listCategories,
  listCategoryItems,
  listSubcategories,
} from '../../catalog/query/categories.ts';
import { serializeItems } from '../../catalog/query/serialize.ts';
import { listEnvelope, parseParams } from './envelope.ts';

/** `gifs/categories`, `gifs/categories/{category}`, `gifs/categories/{category}/{subcategory}`. */
export const categoryRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;

  app.get('/gifs/categories', async (request) => {
    const params = parseParams(categoriesParamsSchema, request.query);
    const page = await listCategories(deps, params);
    return listEnvelope(page.rows, page.totalCount, params.offset);
  });

  app.get<{ Params: { category: string } }>('/gifs/categories/:category', async (request) => {
    const params = parseParams(categoriesParamsSchema, request.query);
    const page = await listSubcategories(deps, request.params.category, params);
    return listEnvelope(page.rows, page.totalCount, params.offset);
  });

  app.get<{ Params: { category: string; subcategory: string } }>(
    '/gifs/categories/:category/:subcategory',
    async (request) => {
      const params = parseParams(categoryItemsParamsSchema, request.query);
      const { category, subcategory } = request.params;
      const page = await listCategoryItems(deps, category, subcategory, params);
      return listEnvelope(await serializeItems(deps, page.rows), page.totalCount, params.offset);
    },
  );
};

import {
  categoriesParamsSchema,
  categoryItemsParamsSchema,
  categoryListEnvelopeSchema,
  categoryPathSchema,
  itemListEnvelopeSchema,
  subcategoryPathSchema,
} from '@sticky/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  listCategories,
  listCategoryItems,
  listSubcategories,
} from '../../catalog/query/categories.ts';
import { serializeItems } from '../../catalog/query/serialize.ts';
import { giphyErrorResponses } from '../../plugins/error-handler.ts';
import { listEnvelope } from './envelope.ts';

const categoryList = { 200: categoryListEnvelopeSchema, ...giphyErrorResponses };

/** `gifs/categories`, `gifs/categories/{category}`, `gifs/categories/{category}/{subcategory}`. */
export const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.get(
    '/gifs/categories',
    {
      schema: {
        summary: 'The categories',
        querystring: categoriesParamsSchema,
        response: categoryList,
      },
    },
    async (request) => {
      const params = request.query;
      const page = await listCategories(deps, params);
      return listEnvelope(page.rows, page.totalCount, params.offset);
    },
  );

  app.get(
    '/gifs/categories/:category',
    {
      schema: {
        summary: 'The subcategories of a category',
        params: categoryPathSchema,
        querystring: categoriesParamsSchema,
        response: categoryList,
      },
    },
    async (request) => {
      const params = request.query;
      const page = await listSubcategories(deps, request.params.category, params);
      return listEnvelope(page.rows, page.totalCount, params.offset);
    },
  );

  app.get(
    '/gifs/categories/:category/:subcategory',
    {
      schema: {
        summary: 'The items of a subcategory',
        params: subcategoryPathSchema,
        querystring: categoryItemsParamsSchema,
        response: { 200: itemListEnvelopeSchema, ...giphyErrorResponses },
      },
    },
    async (request) => {
      const params = request.query;
      const { category, subcategory } = request.params;
      const page = await listCategoryItems(deps, category, subcategory, params);
      return listEnvelope(await serializeItems(deps, page.rows), page.totalCount, params.offset);
    },
  );
};

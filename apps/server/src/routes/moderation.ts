import {
  blockedHashParamsSchema,
  categoryParamsSchema,
  closeReportRequestSchema,
  closeReportResponseSchema,
  createCategoryRequestSchema,
  createReportRequestSchema,
  createReportResponseSchema,
  createUploadBanRequestSchema,
  deleteCategoryResponseSchema,
  liftUploadBanResponseSchema,
  listAuditQuerySchema,
  listAuditResponseSchema,
  listBlockedHashesResponseSchema,
  listManagedCategoriesResponseSchema,
  listReportsQuerySchema,
  listReportsResponseSchema,
  listUploadBansResponseSchema,
  managedCategoryResponseSchema,
  ownedItemParamsSchema,
  renameCategoryRequestSchema,
  reportParamsSchema,
  unblockHashResponseSchema,
  uploadBanParamsSchema,
  uploadBanResponseSchema,
} from '@sticky/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ensureAdmin } from '../auth/roles.ts';
import { listAuditEvents } from '../moderation/audit-log.ts';
import { listBlockedHashes, unblockHash } from '../moderation/block-list.ts';
import {
  createCategory,
  deleteCategory,
  listManagedCategories,
  renameCategory,
} from '../moderation/managed-categories.ts';
import { closeReport, createReport, listReports } from '../moderation/reports.ts';
import { banUploader, liftUploadBan, listUploadBans } from '../moderation/upload-bans.ts';
import { apiErrorResponses } from '../plugins/error-handler.ts';
import { requireSignedIn, signedInUser } from '../plugins/session.ts';

const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', 'no-store');
};

/** `POST /api/items/{id}/reports`: a signed-in person reports an item (docs/security.md, "Moderation"). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireSignedIn);
  app.addHook('onSend', noStore);

  app.post(
    '/:id/reports',
    {
      // A person reports a few items a day; more is a script.
      config: { rateLimit: { max: 10 } },
      schema: {
        summary: 'Report an item to the admins',
        description:
          'One reason from the list and an optional note. One open report per person and item: a second answers 409.',
        params: ownedItemParamsSchema,
        body: createReportRequestSchema,
        response: { 201: createReportResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const report = await createReport(
        app.deps,
        signedInUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(201).send(report);
    },
  );
};

/** `GET /api/categories`: the categories an upload or an edit may choose from. */
export const categoriesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireSignedIn);
  app.addHook('onSend', noStore);

  app.get(
    '/',
    {
      schema: {
        summary: 'Every category, to file an item under (only admins add them)',
        response: { 200: listManagedCategoriesResponseSchema, ...apiErrorResponses },
      },
    },
    async () => ({
      success: true as const,
      categories: await listManagedCategories(app.deps.database.db),
    }),
  );
};

const adminPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});

/** `/api/admin/*` moderation (docs/security.md, "Moderation"): admins only, each action audited. */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireSignedIn);
  // Before the body is validated: a non-admin learns only that this is not theirs.
  app.addHook('onRequest', async (request) => {
    ensureAdmin(signedInUser(request), 'moderate');
  });
  app.addHook('onSend', noStore);
  const admin = (request: FastifyRequest) => signedInUser(request);

  app.get(
    '/reports',
    {
      schema: {
        summary: 'Reports in one state (default open), newest first (admins)',
        querystring: listReportsQuerySchema,
        response: { 200: listReportsResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => listReports(app.deps, request.query),
  );

  app.patch(
    '/reports/:id',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Resolve or dismiss an open report (admins)',
        params: reportParamsSchema,
        body: closeReportRequestSchema,
        response: { 200: closeReportResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await closeReport(app.deps, admin(request), request.params.id, request.body.state);
      return { success: true as const, id: request.params.id, state: request.body.state };
    },
  );

  app.get(
    '/audit',
    {
      schema: {
        summary: 'Every admin action: who, what, when; newest first (admins)',
        querystring: listAuditQuerySchema,
        response: { 200: listAuditResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => listAuditEvents(app.deps.database, request.query),
  );

  app.get(
    '/blocked-hashes',
    {
      schema: {
        summary: 'The block list: files that may not be uploaded again (admins)',
        querystring: adminPageQuerySchema,
        response: { 200: listBlockedHashesResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => listBlockedHashes(app.deps.database, request.query),
  );

  app.delete(
    '/blocked-hashes/:hash',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Take a file off the block list (admins)',
        params: blockedHashParamsSchema,
        response: { 200: unblockHashResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await unblockHash(app.deps.database, admin(request), request.params.hash);
      return { success: true as const, sha256: request.params.hash };
    },
  );

  app.get(
    '/upload-bans',
    {
      schema: {
        summary: 'People stopped from uploading (admins)',
        response: { 200: listUploadBansResponseSchema, ...apiErrorResponses },
      },
    },
    async () => ({ success: true as const, bans: await listUploadBans(app.deps.database) }),
  );

  app.put(
    '/upload-bans/:userId',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Stop a person from uploading, with the reason they see (admins)',
        params: uploadBanParamsSchema,
        body: createUploadBanRequestSchema,
        response: { 200: uploadBanResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      ban: await banUploader(
        app.deps.database,
        admin(request),
        request.params.userId,
        request.body.reason,
      ),
    }),
  );

  app.delete(
    '/upload-bans/:userId',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Let a person upload again (admins)',
        params: uploadBanParamsSchema,
        response: { 200: liftUploadBanResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await liftUploadBan(app.deps.database, admin(request), request.params.userId);
      return { success: true as const, userId: request.params.userId };
    },
  );

  app.post(
    '/categories',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Add a category, top-level or under one (admins)',
        body: createCategoryRequestSchema,
        response: { 201: managedCategoryResponseSchema, ...apiErrorResponses },
      },
    },
    async (request, reply) => {
      const category = await createCategory(app.deps, admin(request), request.body);
      return reply.code(201).send({ success: true as const, category });
    },
  );

  app.patch(
    '/categories/:id',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Rename a category (admins)',
        params: categoryParamsSchema,
        body: renameCategoryRequestSchema,
        response: { 200: managedCategoryResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      category: await renameCategory(
        app.deps,
        admin(request),
        request.params.id,
        request.body.name,
      ),
    }),
  );

  app.delete(
    '/categories/:id',
    {
      config: { rateLimit: { max: 120 } },
      schema: {
        summary: 'Delete a category and its subcategories; their items stay (admins)',
        params: categoryParamsSchema,
        response: { 200: deleteCategoryResponseSchema, ...apiErrorResponses },
      },
    },
    async (request) => {
      await deleteCategory(app.deps, admin(request), request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );
};

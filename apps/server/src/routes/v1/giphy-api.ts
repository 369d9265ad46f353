import type { FastifyInstance } from 'fastify';
import { catalogReadsPlugin } from '../../plugins/catalog-reads.ts';
import { answerErrorsAsGiphy } from '../../plugins/error-handler.ts';
import { markAsApi } from '../../plugins/host-check.ts';
import { nulParametersPlugin } from '../../plugins/nul-parameters.ts';
import { documentRoutesAs } from '../../plugins/openapi.ts';
import { sessionUserPlugin } from '../../plugins/session.ts';
import { registerV1Access } from './access.ts';

/**
 * What every plugin serving GIPHY's API registers before its routes (`/v1`, and GIPHY's
 * `/v2/emoji` beside Tenor's `/v2`): errors and not-found answers in GIPHY's `{meta}`
 * envelope, the API's host rule, its OpenAPI tag, the session, who may call (a session or an
 * api_key), the NUL check and the catalog's reads (docs/api.md, "/v1"). Each such plugin is
 * encapsulated, so these apply to its own routes only.
 */
export async function registerGiphyApi(app: FastifyInstance): Promise<void> {
  answerErrorsAsGiphy(app);
  markAsApi(app);
  // Every route of GIPHY's API reads: a token needs `read` (docs/security.md, "API tokens").
  const defaultTokenScope = 'read';
  documentRoutesAs(app, 'v1', {
    security: [{ session: [] }, { apiKey: [] }],
    defaultTokenScope,
  });
  await app.register(sessionUserPlugin, { defaultTokenScope });
  await registerV1Access(app);
  await app.register(nulParametersPlugin);
  await app.register(catalogReadsPlugin);
}

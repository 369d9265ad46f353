import type { ReadyResponse } from '@sticky/contracts';
import { createCatalogServices } from '../catalog/catalog-services.ts';
import type { CatalogServices } from '../catalog/catalog-services.ts';
import type { MaintenanceLogger } from '../catalog/maintenance.ts';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { MediaServices } from '../catalog/import/media-services.ts';
import { createIntegrationServices } from '../integrations/integration-services.ts';
import type { IntegrationServices } from '../integrations/integration-services.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import {
  createTelegramIntegration,
  describeTelegram,
} from '../integrations/telegram/telegram-integration.ts';
import type {
  TelegramIntegration,
  TelegramIntegrationOptions,
} from '../integrations/telegram/telegram-integration.ts';
import { createAppMetrics } from './metrics-service.ts';
import type { AppMetrics } from './metrics-service.ts';

/** What /readyz says about the starter catalog (seeded behind the running server). */
export interface CatalogState {
  starter: ReadyResponse['catalog'];
}

/** What the composition root is given: configuration and connections, made by its caller. */
export interface AppDepsInput {
  config: AppConfig;
  database: DatabaseHandle;
  /**
   * Media files and the decoder processes: made and closed by the caller, which shares them with
   * its job workers (catalog/import/media-services.ts).
   */
  media: MediaServices;
  catalog?: CatalogState;
  /** Signs short-lived cookies (the sign-in flow); never the session token itself. */
  sessionSecret: string;
  /**
   * The running server's job queue: with it, what the app draws (animated text) is visible once
   * its tiles exist and the rest is made by jobs (docs/architecture.md, "Jobs").
   */
  jobs?: JobQueue;
  /** Timings of the Telegram poller (tests: short ones). */
  telegramOptions?: TelegramIntegrationOptions;
}

/**
 * `app.deps`: the input plus the services made for this app (docs/architecture.md, "Services
 * per app"). Routes pass it to the domain, whose functions each name the part they need.
 */
export interface AppDeps extends AppDepsInput {
  services: CatalogServices;
  /** This app's Prometheus registry and counters (docs/operations.md, "Metrics"). */
  metrics: AppMetrics;
  /** The chat platforms' registry, limits, button signer and last requests (docs/integrations.md). */
  integrations: IntegrationServices;
  /** The Telegram inline bot: polling once the app is ready, when configured; its status. */
  telegram: TelegramIntegration;
}

export interface AppServices {
  deps: AppDeps;
  /** Closes what the services hold (timers, listeners, drawings under way): the app's onClose. */
  close: () => Promise<void>;
}

/** Makes one app's services; buildApp decorates them as `app.deps` and closes them onClose. */
export function createAppServices(input: AppDepsInput, log: MaintenanceLogger): AppServices {
  const metrics = createAppMetrics({
    database: input.database,
    readDecoderCpuSeconds: () => input.media.processor.readCpuSeconds(),
  });
  const services = createCatalogServices({
    config: input.config,
    database: input.database,
    media: input.media,
    secret: input.sessionSecret,
    log,
    countLookupsOf: metrics.countLookupsOf,
  });
  const integrations = createIntegrationServices({
    config: input.config,
    database: input.database,
    secret: input.sessionSecret,
    log,
  });
  const telegram = createTelegramIntegration({ ...input, services }, log, {
    ...input.telegramOptions,
    onUpdates: () => integrations.lastRequests.note('telegram', true),
  });
  integrations.registry.register(() => describeTelegram(input.config, telegram.readStatus()));
  return {
    deps: { ...input, services, metrics, integrations, telegram },
    close: async () => {
      // First: an answer under way still searches with the services.
      await telegram.close();
      await integrations.close();
      await services.close();
      metrics.close();
    },
  };
}

import type { IntegrationPlatform } from '@sticky/contracts';
import type { CommitNotice } from '../catalog/query/catalog-versions.ts';
import type { QueryDeps } from '../catalog/query/query-caches.ts';
import type { AppConfig } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createChatLimits } from './chat-limits.ts';
import type { ChatLimits } from './chat-limits.ts';
import { describeDiscord } from './discord/discord-setup.ts';
import { createLastRequestLog } from './last-requests.ts';
import type { LastRequestLog } from './last-requests.ts';
import { describeMattermost } from './mattermost/mattermost-setup.ts';
import type { PlatformDescription } from './platform-description.ts';

export type { PlatformDescription } from './platform-description.ts';
import { createContextSigner } from './signed-context.ts';
import type { ContextSigner } from './signed-context.ts';
import { describeSlack } from './slack/slack-setup.ts';

/**
 * The platforms /admin → Integrations lists, each described by its own module: Slack,
 * Mattermost and Discord here, Telegram (or any later one) by calling `register` with the app's
 * services (docs/integrations.md, "Adding a platform").
 */
export interface IntegrationRegistry {
  register: (describe: () => PlatformDescription) => void;
  list: () => Promise<IntegrationPlatform[]>;
}

/** Work a platform answer starts after its reply (Discord's follow-up), awaited on close. */
export interface BackgroundTasks {
  run: (task: () => Promise<void>) => void;
  /** Resolves once every task started has ended. */
  settle: () => Promise<void>;
}

export interface IntegrationServices {
  registry: IntegrationRegistry;
  lastRequests: LastRequestLog;
  limits: ChatLimits;
  signer: ContextSigner;
  tasks: BackgroundTasks;
  close: () => Promise<void>;
}

/** What the platforms' routes need of the app: the catalog's reads and these services. */
export type ChatDeps = QueryDeps & CommitNotice & { integrations: IntegrationServices };

function createRegistry(lastRequests: LastRequestLog): IntegrationRegistry {
  const describers: Array<() => PlatformDescription> = [];
  return {
    register(describe) {
      describers.push(describe);
    },
    async list() {
      const last = await lastRequests.read();
      return describers.map((describe) => {
        const description = describe();
        return { ...description, lastRequest: last.get(description.platform) ?? null };
      });
    },
  };
}

function createBackgroundTasks(onError: (error: unknown) => void): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(task) {
      const promise = task()
        .catch(onError)
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    async settle() {
      await Promise.all([...running]);
    },
  };
}

/** One app's integration services (docs/architecture.md, "Services per app"). */
export function createIntegrationServices(input: {
  config: AppConfig;
  database: DatabaseHandle;
  secret: string;
  log: { warn: (fields: object, message?: string) => void };
}): IntegrationServices {
  const { config } = input;
  const lastRequests = createLastRequestLog(input.database);
  const registry = createRegistry(lastRequests);
  registry.register(() => describeSlack(config));
  registry.register(() => describeMattermost(config));
  registry.register(() => describeDiscord(config));
  const tasks = createBackgroundTasks((error) =>
    input.log.warn({ error: (error as Error).name }, 'A chat platform task failed'),
  );
  return {
    registry,
    lastRequests,
    limits: createChatLimits({
      perWorkspace: config.integrations.perWorkspacePerMinute,
      perUser: config.integrations.perUserPerMinute,
    }),
    signer: createContextSigner(input.secret),
    tasks,
    close: tasks.settle,
  };
}

import { z } from 'zod';

/** One URL a platform is given (a slash command's Request URL, an interactions endpoint). */
export const integrationEndpointSchema = z.object({
  label: z.string(),
  url: z.string(),
});

/**
 * One chat platform as /admin → Integrations shows it (docs/integrations.md): each platform
 * module contributes one, Telegram's included.
 */
export const integrationPlatformSchema = z.object({
  /** `slack`, `mattermost`, `discord`, `telegram`. */
  platform: z.string(),
  /** Its name for people. */
  name: z.string(),
  isConfigured: z.boolean(),
  endpoints: z.array(integrationEndpointSchema),
  /** The last request it sent and whether its signature or token verified. */
  lastRequest: z.object({ at: z.string(), isVerified: z.boolean() }).nullable(),
  /** What to do, in order, to set it up. */
  setupSteps: z.array(z.string()),
  /** Settings it reads, each with whether it is set (never its value). */
  settings: z.array(z.object({ name: z.string(), isSet: z.boolean() })),
  /** A manifest to paste at the platform (Slack's "create from manifest"), when it has one. */
  manifest: z.object({ format: z.enum(['json', 'yaml']), text: z.string() }).optional(),
  /** What this deployment cannot do on it (for example: the platform fetches media itself). */
  notes: z.array(z.string()),
});
export type IntegrationPlatform = z.infer<typeof integrationPlatformSchema>;

export const listIntegrationsResponseSchema = z.object({
  success: z.literal(true),
  publicUrl: z.string(),
  /** The highest rating a chat is shown (INTEGRATIONS_RATING). */
  rating: z.string(),
  platforms: z.array(integrationPlatformSchema),
});
export type ListIntegrationsResponse = z.infer<typeof listIntegrationsResponseSchema>;

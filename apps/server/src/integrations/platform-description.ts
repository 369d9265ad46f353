import type { IntegrationPlatform } from '@sticky/contracts';

/** What a platform module tells /admin → Integrations about itself (the last request is read). */
export type PlatformDescription = Omit<IntegrationPlatform, 'lastRequest'>;

import { z } from 'zod';

/**
 * Pages whose views are counted (the landing page; docs/web.md). A closed list keeps the
 * `page_views` table from growing with whatever paths a client invents.
 */
export const trackedPagePaths = ['/landing'] as const;

/** `POST /api/analytics/pageview`: which page was viewed; nothing about who viewed it. */
export const pageViewRequestSchema = z.object({ path: z.enum(trackedPagePaths) }).strict();
export type PageViewRequest = z.infer<typeof pageViewRequestSchema>;

import { z } from 'zod';
import { itemIdPattern } from './giphy-params.ts';

/** What a signed-in user did with an item; each feeds trending (see catalog/query/trending.ts). */
export const itemEventTypeSchema = z.enum(['view', 'copy', 'download']);
export type ItemEventType = z.infer<typeof itemEventTypeSchema>;

/** `POST /api/events` */
export const itemEventRequestSchema = z.object({
  type: itemEventTypeSchema,
  id: z
    .string()
    .regex(itemIdPattern, 'id must be an item id (1 to 64 letters, digits, "-" or "_")'),
});
export type ItemEventRequest = z.infer<typeof itemEventRequestSchema>;

export const itemEventResponseSchema = z.object({
  success: z.literal(true),
  /** False when this user's event of this type for this item was already counted today. */
  counted: z.boolean(),
});
export type ItemEventResponse = z.infer<typeof itemEventResponseSchema>;

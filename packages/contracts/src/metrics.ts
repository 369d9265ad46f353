import { z } from 'zod';

/**
 * `GET /metrics`: the server's metrics in Prometheus' text exposition format (version 0.0.4),
 * for a Prometheus server to scrape (docs/operations.md, "Metrics").
 */
export const metricsTextSchema = z.string().meta({
  description: "Prometheus' text exposition format: `# HELP`, `# TYPE` and one sample a line.",
});
export type MetricsText = z.infer<typeof metricsTextSchema>;

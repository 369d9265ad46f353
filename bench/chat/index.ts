import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { log } from '../lib/log.ts';
import { benchApiKey, createDataDir, startBenchServer } from '../lib/server.ts';
import type { BenchServer } from '../lib/server.ts';
import type { LatencySummary } from '../lib/stats.ts';
import { round, summarizeLatencies } from '../lib/stats.ts';
import { growCatalog, readVocabulary } from '../search/synthetic-catalog.ts';

/*
 * Signed `/sticky` commands to each platform's endpoint (docs/integrations.md) at c=1 and c=16,
 * with /healthz and the same words through /v1's search measured beside them in the same run
 * (issue 45: p99 ≤ 300 ms). Each request is signed as the platform signs it; a signature stays
 * valid five minutes, so the requests are signed once before the runs.
 */

export type ChatTarget = 'healthz' | 'v1-search' | 'slack' | 'mattermost' | 'discord';
export const chatTargets: readonly ChatTarget[] = [
  'healthz',
  'v1-search',
  'slack',
  'mattermost',
  'discord',
];

export interface ChatLoad {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: LatencySummary;
  failures: number;
}

export interface ChatSizeResult {
  items: number;
  /** Distinct words in the mix. */
  words: number;
  targets: Record<ChatTarget, { c1: ChatLoad; c16: ChatLoad }>;
}

export interface ChatBenchResult {
  sizes: ChatSizeResult[];
}

interface PreparedRequest {
  path: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

const slackSecret = 'bench-slack-signing-secret-0123456789';
const mattermostToken = 'bench-mattermost-command-token-012345';

/** Words people would type: labels of the emoji vocabulary the synthetic catalog is made of. */
function pickWords(count: number): string[] {
  const labels = [...new Set(readVocabulary().map((row) => row.label.toLowerCase()))];
  const step = Math.max(1, Math.floor(labels.length / count));
  return labels.filter((_, index) => index % step === 0).slice(0, count);
}

function buildRequests(
  words: readonly string[],
  discordKey: ReturnType<typeof generateKeyPairSync>,
) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const slack = words.map((text, index): PreparedRequest => {
    const body = form({
      team_id: `T${index % 8}`,
      user_id: `U${index}`,
      command: '/sticky',
      text,
      response_url: 'https://hooks.slack.com/commands/T0/1/bench',
    });
    const signature = `v0=${createHmac('sha256', slackSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    return {
      path: '/integrations/slack/commands',
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signature,
      },
      body,
    };
  });
  const mattermost = words.map((text, index): PreparedRequest => ({
    path: '/integrations/mattermost/commands',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({
      token: mattermostToken,
      team_id: `team${index % 8}`,
      user_id: `user${index}`,
      command: '/sticky',
      text,
      response_url: 'http://127.0.0.1:9/hooks/bench',
    }),
  }));
  const discord = words.map((text, index): PreparedRequest => {
    const body = JSON.stringify({
      id: String(index + 1),
      application_id: '111111111111111111',
      type: 2,
      token: 'bench-token',
      version: 1,
      guild_id: String(900 + (index % 8)),
      channel_id: '222',
      member: { user: { id: String(10_000 + index) } },
      data: {
        id: '9',
        name: 'sticky',
        type: 1,
        options: [{ name: 'query', type: 3, value: text }],
      },
    });
    const signature = sign(null, Buffer.from(`${timestamp}${body}`), discordKey.privateKey);
    return {
      path: '/integrations/discord/interactions',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature.toString('hex'),
        'x-signature-timestamp': timestamp,
      },
      body,
    };
  });
  return {
    healthz: [{ path: '/healthz', method: 'GET' as const }],
    'v1-search': words.map((q): PreparedRequest => ({
      path: `/v1/gifs/search?api_key=${benchApiKey}&q=${encodeURIComponent(q)}&limit=1&offset=0&rating=pg-13`,
      method: 'GET',
    })),
    slack,
    mattermost,
    discord,
  } satisfies Record<ChatTarget, PreparedRequest[]>;
}

/**
 * `connections` loops, each sending the next request as soon as its last answered, for
 * `seconds`; every answer's time is a sample. fetch keeps its connections alive, as a
 * platform's does.
 */
async function runChatLoad(
  url: string,
  requests: readonly PreparedRequest[],
  connections: number,
  seconds: number,
): Promise<ChatLoad> {
  const samples: number[] = [];
  let failures = 0;
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const request = requests[next++ % requests.length]!;
        const at = performance.now();
        try {
          const response = await fetch(`${url}${request.path}`, {
            method: request.method,
            headers: request.headers,
            body: request.body,
          });
          await response.arrayBuffer();
          if (!response.ok) failures += 1;
        } catch {
          failures += 1;
        }
        samples.push(performance.now() - at);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const summary = summarizeLatencies(samples);
  return {
    connections,
    seconds: round(elapsed, 1),
    requests: samples.length,
    requestsPerSecond: round(samples.length / elapsed, 1),
    latencyMs: {
      count: summary.count,
      mean: round(summary.mean),
      p50: round(summary.p50),
      p95: round(summary.p95),
      p99: round(summary.p99),
      max: round(summary.max),
    },
    failures,
  };
}

export async function runChatBench(options: {
  sizes: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
  wordCount: number;
}): Promise<ChatBenchResult> {
  const dataDir = createDataDir('chat');
  const discordKey = generateKeyPairSync('ed25519');
  const publicKeyHex = discordKey.publicKey
    .export({ format: 'der', type: 'spki' })
    .subarray(12)
    .toString('hex');
  log(`chat: starting the server (DATA_DIR ${dataDir})`);
  const server: BenchServer = await startBenchServer(dataDir, {
    SLACK_SIGNING_SECRET: slackSecret,
    MATTERMOST_COMMAND_TOKENS: mattermostToken,
    MATTERMOST_URL: 'http://127.0.0.1:9',
    DISCORD_PUBLIC_KEY: publicKeyHex,
    // One bench at thousands of requests a minute: not what the limits are for.
    INTEGRATIONS_PER_WORKSPACE_PER_MINUTE: '1000000',
    INTEGRATIONS_PER_USER_PER_MINUTE: '100000',
  });
  const results: ChatSizeResult[] = [];
  try {
    for (const size of options.sizes) {
      log(`chat: growing the catalog to ${size.toLocaleString('en')} items`);
      const growth = await growCatalog(server.database, size);
      const words = pickWords(options.wordCount);
      const requests = buildRequests(words, discordKey);
      const targets = {} as ChatSizeResult['targets'];
      for (const target of chatTargets) {
        await runChatLoad(server.url, requests[target], 4, options.warmupSeconds);
        const c1 = await runChatLoad(server.url, requests[target], 1, options.durationSeconds);
        const c16 = await runChatLoad(server.url, requests[target], 16, options.durationSeconds);
        targets[target] = { c1, c16 };
        log(
          `chat: ${size} items, ${target}: c=1 p50 ${c1.latencyMs.p50} p99 ${c1.latencyMs.p99} ms; c=16 p50 ${c16.latencyMs.p50} p99 ${c16.latencyMs.p99} ms, ${c16.requestsPerSecond}/s, failures ${c1.failures + c16.failures}`,
        );
      }
      results.push({ items: growth.items, words: words.length, targets });
    }
  } finally {
    await server.stop();
  }
  return { sizes: results };
}

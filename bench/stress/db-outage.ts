import fs from 'node:fs';
import type { LoadResult, Target } from './load.ts';
import { runLoad } from './load.ts';
import { isProcessAlive } from '../../apps/server/src/lib/process-alive.ts';
import { postmasterPid, sleep } from './server.ts';
import type { StressServer } from './server.ts';

export interface OutageResult {
  load: LoadResult;
  killedPid: number;
  killedAtS: number;
  /** Seconds from the kill to the first 503 seen by a client. */
  firstUnavailableAfterS: number | null;
  /** Seconds from the kill until /readyz answered 200 again for good. */
  recoveredAfterS: number | null;
  readyzRecoveredAfterS: number | null;
  clientsServedAgainAfterS: number;
  /** From the server's log: when it had restarted PostgreSQL. */
  databaseBackAfterS: number | null;
  /** Latency of 200 answers in the 8 s before the kill. */
  beforeKillLatencyMs: { p50: number; p99: number; count: number };
  /** Whether the recovery happened within the 10 s the issue allows. */
  isRecoveredInTime: boolean;
  readyz: { sawUnavailable: boolean; statuses: Record<string, number> };
  /** Answers during the outage (kill → recovery), by status. */
  duringOutage: Record<string, number>;
  /** How long failing requests took to fail (fail fast). */
  unavailableLatencyMs: { p50: number; p99: number; max: number; count: number };
  /** meta.msg of /v1 answers and the error message of /api answers during the outage. */
  messages: string[];
  /** Anything that is neither 2xx nor a clean 503 during the outage (should be empty). */
  unexpected: string[];
  favorites: {
    writers: number;
    acknowledgedBeforeKill: number;
    acknowledgedAfterKill: number;
    failedWrites: number;
    missingAfter: string[];
  };
  newPostmasterPid: number | undefined;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return (
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]! * 10) / 10
  );
}

/** "embedded PostgreSQL is back" in the server's log (LOG_LEVEL info), seconds after the kill. */
function readDatabaseBack(logFile: string, killedAt: number): number | null {
  try {
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
      if (!line.includes('embedded PostgreSQL is back')) continue;
      const time = (JSON.parse(line) as { time: number }).time;
      if (time >= killedAt) return (time - killedAt) / 1000;
    }
  } catch {
    // no log
  }
  return null;
}

function readMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { meta?: { msg?: string }; error?: { message?: string } };
    return parsed.meta?.msg ?? parsed.error?.message;
  } catch {
    return undefined;
  }
}

/**
 * Load on the server, then `kill -9` of its embedded PostgreSQL in the middle of it. Watches
 * /readyz every 100 ms, keeps writers adding favourites throughout, and checks afterwards that
 * every favourite the server acknowledged is still there.
 */
export async function runDatabaseOutage(options: {
  server: StressServer;
  cookies: string[];
  writerCookies: string[];
  targets: Target[];
  connections: number;
  durationS: number;
  killAtS: number;
}): Promise<OutageResult> {
  const { server } = options;
  const startedAt = Date.now();
  let killedAt = 0;
  let isDone = false;

  const readyzTimeline: Array<{ at: number; status: number }> = [];
  // A probe every 100 ms, each on its own: on a saturated server one answer can take seconds,
  // and a prober that waited for each would miss a short outage.
  const probes: Array<Promise<void>> = [];
  const probeReadyz = (async () => {
    while (!isDone) {
      const at = Date.now();
      probes.push(
        fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(15_000) })
          .then(async (response) => {
            await response.arrayBuffer();
            readyzTimeline.push({ at, status: response.status });
          })
          // A probe that times out says nothing either way.
          .catch(() => readyzTimeline.push({ at, status: 0 })),
      );
      await sleep(100);
    }
    await Promise.all(probes);
    readyzTimeline.sort((a, b) => a.at - b.at);
  })();

  const acknowledged: Array<{ cookie: string; id: string; at: number }> = [];
  let failedWrites = 0;
  const writers = options.writerCookies.map(async (cookie, writer) => {
    let sequence = 0;
    while (!isDone) {
      const id = `stress${writer}n${sequence++}`;
      try {
        const response = await fetch(`${server.url}/api/favorites/${id}`, {
          method: 'PUT',
          headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' },
          signal: AbortSignal.timeout(15_000),
        });
        await response.arrayBuffer();
        if (response.ok) acknowledged.push({ cookie, id, at: Date.now() });
        else failedWrites += 1;
      } catch {
        failedWrites += 1;
      }
      // Under the 120 writes a minute an account may make.
      await sleep(600);
    }
  });

  const answers: Array<{ at: number; status: number; ms: number; name: string; body?: string }> =
    [];
  const load = runLoad({
    url: server.url,
    connections: options.connections,
    durationS: options.durationS,
    targets: options.targets,
    cookies: options.cookies,
    onAnswer: ({ at, status, ms, name, body }) => {
      answers.push({ at, status, ms, name, body: status === 200 ? undefined : body });
    },
  });

  await sleep(options.killAtS * 1000);
  const killedPid = postmasterPid(server.dataDir);
  if (!killedPid || !isProcessAlive(killedPid)) throw new Error('no running postmaster to kill');
  killedAt = Date.now();
  process.kill(killedPid, 'SIGKILL');

  const loadResult = await load;
  // Let the last writes and probes settle, then make sure the database is back.
  const settleUntil = Date.now() + 30_000;
  while (Date.now() < settleUntil) {
    const last = readyzTimeline.at(-1);
    if (last && last.status === 200 && last.at > killedAt) break;
    await sleep(200);
  }
  isDone = true;
  await Promise.all([probeReadyz, ...writers]);

  const afterKill = readyzTimeline.filter((probe) => probe.at >= killedAt);
  const lastBad = [...afterKill].reverse().find((probe) => probe.status === 503);
  const recovered = lastBad
    ? afterKill.find((probe) => probe.at > lastBad.at && probe.status === 200)
    : afterKill.find((probe) => probe.status === 200);
  // Clients: every request sent after the last one that got a 503 was served.
  const sentAt = (answer: { at: number; ms: number }) => answer.at - answer.ms;
  const lastUnavailable = answers
    .filter((answer) => answer.status === 503)
    .reduce((latest, answer) => Math.max(latest, sentAt(answer)), 0);
  const readyzRecoveredAt = recovered?.at ?? null;
  const recoveredAt =
    readyzRecoveredAt === null ? null : Math.max(readyzRecoveredAt, lastUnavailable);
  const outageEnd = recoveredAt ?? Date.now();
  // What answers took just before the kill: the yardstick for "fails fast".
  const baseline = answers
    .filter(
      (answer) => answer.status === 200 && answer.at < killedAt && answer.at > killedAt - 8000,
    )
    .map((answer) => answer.ms);
  const firstUnavailable = answers.find((answer) => answer.at >= killedAt && answer.status === 503);
  const during = answers.filter((answer) => answer.at >= killedAt && answer.at <= outageEnd + 1000);
  const duringOutage: Record<string, number> = {};
  for (const answer of during) duringOutage[answer.status] = (duringOutage[answer.status] ?? 0) + 1;
  const unavailable = during.filter((answer) => answer.status === 503);
  const messages = [
    ...new Set(
      unavailable.map(
        (answer) => `${answer.name}: ${readMessage(answer.body ?? '') ?? '(no message)'}`,
      ),
    ),
  ];
  const unexpected = during
    .filter((answer) => answer.status !== 200 && answer.status !== 503)
    .slice(0, 10)
    .map((answer) => `${answer.name} ${answer.status}: ${(answer.body ?? '').slice(0, 200)}`);

  // Every favourite the server acknowledged, before or after the kill, must still be there.
  const missingAfter: string[] = [];
  for (const cookie of options.writerCookies) {
    const response = await fetch(`${server.url}/api/favorites`, { headers: { cookie } });
    const { ids } = (await response.json()) as { ids: string[] };
    const kept = new Set(ids);
    for (const entry of acknowledged.filter((item) => item.cookie === cookie)) {
      if (!kept.has(entry.id)) missingAfter.push(entry.id);
    }
  }
  const readyzStatuses: Record<string, number> = {};
  for (const probe of afterKill)
    readyzStatuses[probe.status] = (readyzStatuses[probe.status] ?? 0) + 1;
  const recoveredAfterS = recoveredAt === null ? null : (recoveredAt - killedAt) / 1000;
  const databaseBackAfterS = readDatabaseBack(server.logFile, killedAt);

  return {
    load: loadResult,
    killedPid,
    killedAtS: (killedAt - startedAt) / 1000,
    firstUnavailableAfterS: firstUnavailable ? (firstUnavailable.at - killedAt) / 1000 : null,
    recoveredAfterS,
    readyzRecoveredAfterS:
      readyzRecoveredAt === null ? null : (readyzRecoveredAt - killedAt) / 1000,
    clientsServedAgainAfterS: lastUnavailable > 0 ? (lastUnavailable - killedAt) / 1000 : 0,
    databaseBackAfterS,
    isRecoveredInTime: recoveredAfterS !== null && recoveredAfterS <= 10,
    beforeKillLatencyMs: {
      p50: percentile(baseline, 0.5),
      p99: percentile(baseline, 0.99),
      count: baseline.length,
    },
    readyz: {
      sawUnavailable: afterKill.some((probe) => probe.status === 503),
      statuses: readyzStatuses,
    },
    duringOutage,
    unavailableLatencyMs: {
      p50: percentile(
        unavailable.map((answer) => answer.ms),
        0.5,
      ),
      p99: percentile(
        unavailable.map((answer) => answer.ms),
        0.99,
      ),
      max: percentile(
        unavailable.map((answer) => answer.ms),
        1,
      ),
      count: unavailable.length,
    },
    messages,
    unexpected,
    favorites: {
      writers: options.writerCookies.length,
      acknowledgedBeforeKill: acknowledged.filter((entry) => entry.at < killedAt).length,
      acknowledgedAfterKill: acknowledged.filter((entry) => entry.at >= killedAt).length,
      failedWrites,
      missingAfter,
    },
    newPostmasterPid: postmasterPid(server.dataDir),
  };
}

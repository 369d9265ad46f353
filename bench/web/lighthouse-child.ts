// One Lighthouse run in its own process (Lighthouse keeps global state and a lot of memory):
// argv[2] is a JSON job, the summary is printed as JSON on stdout.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

interface Job {
  url: string;
  chromePath: string;
  cookie?: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const chrome = await chromeLauncher.launch({
  chromePath: job.chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  logLevel: 'silent',
});
try {
  // The default config is the mobile preset (Moto G Power, simulated slow 4G, 4× CPU slowdown).
  const result = await lighthouse(job.url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    extraHeaders: job.cookie ? { Cookie: job.cookie } : undefined,
  });
  if (!result) throw new Error('Lighthouse returned nothing');
  const { lhr } = result;
  const score = (id: string) => {
    const value = lhr.categories[id]?.score;
    return typeof value === 'number' ? Math.round(value * 100) : null;
  };
  const audit = (id: string) => lhr.audits[id];
  const failing = (category: string) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => audit(ref.id))
      .filter((item) => item && typeof item.score === 'number' && item.score < 0.9)
      .map((item) => {
        // The first few offenders, so the README can say what failed, not only which audit.
        const items = ((item!.details as { items?: Array<Record<string, unknown>> } | undefined)
          ?.items ?? []) as Array<Record<string, unknown>>;
        const examples = items.slice(0, 3).map((entry) =>
          ['description', 'url', 'source', 'label', 'node']
            .map((key) => entry[key])
            .filter((value) => value !== undefined)
            .map((value) =>
              typeof value === 'object' && value
                ? String(
                    (value as { snippet?: string; url?: string }).snippet ??
                      (value as { url?: string }).url ??
                      '',
                  )
                : String(value),
            )
            .join(' ')
            .slice(0, 200),
        );
        return {
          id: item!.id,
          title: item!.title,
          score: item!.score,
          displayValue: item!.displayValue,
          examples,
        };
      });
  // Lighthouse's own report is what says why an LCP is late or what moved (stop 24 found both
  // causes of `/`'s misses there): the LCP's phases and the layout shifts are kept with it.
  const lcpTables = (
    audit('largest-contentful-paint-element')?.details as
      { items?: Array<{ items?: Array<Record<string, unknown>> }> } | undefined
  )?.items;
  const lcpPhases = Object.fromEntries(
    (lcpTables?.[1]?.items ?? []).map((row) => [String(row.phase), Math.round(Number(row.timing))]),
  );
  const layoutShifts = (
    (audit('layout-shifts')?.details as { items?: Array<Record<string, unknown>> } | undefined)
      ?.items ?? []
  ).map((row) => ({
    node: (row.node as { selector?: string } | undefined)?.selector ?? null,
    score: Number(row.score),
  }));
  const summary = {
    requestedUrl: lhr.requestedUrl,
    finalUrl: lhr.finalDisplayedUrl,
    lighthouseVersion: lhr.lighthouseVersion,
    userAgent: lhr.environment.hostUserAgent,
    formFactor: lhr.configSettings.formFactor,
    throttlingMethod: lhr.configSettings.throttlingMethod,
    runWarnings: lhr.runWarnings,
    runtimeError: lhr.runtimeError?.message,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
    },
    metricsMs: {
      lcp: audit('largest-contentful-paint')?.numericValue ?? null,
      fcp: audit('first-contentful-paint')?.numericValue ?? null,
      tbt: audit('total-blocking-time')?.numericValue ?? null,
      speedIndex: audit('speed-index')?.numericValue ?? null,
    },
    cls: audit('cumulative-layout-shift')?.numericValue ?? null,
    lcpElement:
      (
        audit('largest-contentful-paint-element')?.details as
          { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> } | undefined
      )?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
    lcpPhases,
    layoutShifts,
    failing: {
      performance: failing('performance'),
      accessibility: failing('accessibility'),
      bestPractices: failing('best-practices'),
    },
  };
  process.stdout.write(JSON.stringify(summary));
} finally {
  await chrome.kill();
}

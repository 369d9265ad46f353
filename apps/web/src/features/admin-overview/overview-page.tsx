import type { AdminOverviewResponse } from '@sticky/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuth } from '@/features/auth';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { adminOverviewQueryOptions } from './api/admin-overview.ts';
import { DayChart } from './components/day-chart.tsx';
import { PhraseList } from './components/phrase-list.tsx';
import { formatAge, formatStorage } from './format.ts';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="flex flex-col gap-2 rounded-xl border border-white/10 bg-white/5 p-4"
    >
      <h2 className="text-xl font-bold">{title}</h2>
      {children}
    </section>
  );
}

function Health({ health }: { health: AdminOverviewResponse['health'] }) {
  const where = health.storage.kind === 's3' ? 'S3 bucket' : 'local disk';
  const rows = [
    {
      name: 'Database',
      isOk: health.database.state === 'ok',
      detail:
        health.database.latencyMs === null
          ? 'does not answer'
          : `answers in ${Math.max(1, Math.round(health.database.latencyMs))} ms`,
    },
    {
      name: 'Storage',
      isOk: health.storage.state === 'ok',
      detail: health.storage.state === 'ok' ? `${where} answers` : `${where} does not answer`,
    },
  ];
  return (
    <Panel title="Health">
      <ul className="flex flex-col gap-2">
        {rows.map((row) => (
          <li key={row.name} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`size-3 rounded-full ${row.isOk ? 'bg-emerald-400' : 'bg-rose-400'}`}
            />
            <span className="font-semibold">{row.name}:</span>
            <span className={row.isOk ? 'text-gray-200' : 'text-rose-300'}>
              {row.isOk ? 'OK' : 'Unreachable'}, {row.detail}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function Storage({ storage }: { storage: AdminOverviewResponse['storage'] }) {
  const total = storage.originalBytes + storage.renditionBytes;
  const originalShare = total === 0 ? 0 : (storage.originalBytes / total) * 100;
  return (
    <Panel title="Storage">
      <p className="text-sm text-gray-300">{formatStorage(total)} of media files in all.</p>
      <div aria-hidden="true" className="flex h-3 overflow-hidden rounded-full bg-white/10">
        <span className="bg-violet-500" style={{ width: `${originalShare}%` }} />
        <span
          className="bg-pink-400"
          style={{ width: `${total === 0 ? 0 : 100 - originalShare}%` }}
        />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="flex items-center gap-2">
          <span aria-hidden="true" className="size-3 rounded-sm bg-violet-500" />
          Originals
        </dt>
        <dd className="tabular-nums">{formatStorage(storage.originalBytes)}</dd>
        <dt className="flex items-center gap-2">
          <span aria-hidden="true" className="size-3 rounded-sm bg-pink-400" />
          Renditions
        </dt>
        <dd className="tabular-nums">{formatStorage(storage.renditionBytes)}</dd>
      </dl>
    </Panel>
  );
}

function JobQueues({ queues }: { queues: AdminOverviewResponse['jobQueues'] }) {
  return (
    <Panel title="Job queues">
      {queues.length === 0 ? (
        <p className="text-sm text-gray-300">No jobs waiting or running.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-white/15 text-gray-300">
              <th scope="col" className="py-1 font-semibold">
                Queue
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Waiting
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Running
              </th>
              <th scope="col" className="py-1 text-right font-semibold">
                Oldest
              </th>
            </tr>
          </thead>
          <tbody>
            {queues.map((queue) => (
              <tr key={queue.queue} className="border-b border-white/5">
                <th scope="row" className="py-1 font-normal break-all">
                  {queue.queue}
                </th>
                <td className="py-1 text-right tabular-nums">{queue.waiting}</td>
                <td className="py-1 text-right tabular-nums">{queue.active}</td>
                <td className="py-1 text-right tabular-nums">
                  {formatAge(queue.oldestAgeSeconds)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}

function Overview({ overview }: { overview: AdminOverviewResponse }) {
  return (
    <div className="flex flex-col gap-8">
      <div className="grid gap-4 md:grid-cols-3">
        <Health health={overview.health} />
        <Storage storage={overview.storage} />
        <JobQueues queues={overview.jobQueues} />
      </div>
      <div className="grid gap-8 lg:grid-cols-2">
        <DayChart
          title="Uploads per day"
          noun={['upload', 'uploads']}
          days={overview.uploadsPerDay}
        />
        <DayChart
          title="Searches per day"
          noun={['search', 'searches']}
          days={overview.searchesPerDay}
        />
      </div>
      <div className="grid gap-8 lg:grid-cols-2">
        <PhraseList
          title="Top searches"
          description="What most people searched for in the last 30 days (each person once a day)."
          emptyText="No search yet that two people made."
          phrases={overview.topSearches}
        />
        <PhraseList
          title="Searches that found nothing"
          description="What people looked for and the catalog lacks, last 30 days."
          emptyText="No search that two people made came back empty."
          phrases={overview.missedSearches}
        />
      </div>
    </div>
  );
}

/**
 * Admin overview (docs/web.md, "Admin overview"; docs/operations.md, "Admin overview"): how
 * the instance is doing at a glance, with the chart library loaded on this page only.
 */
export function AdminOverviewPage() {
  useDocumentTitle('Overview');
  const { user } = useAuth();
  const query = useQuery({ ...adminOverviewQueryOptions(), enabled: Boolean(user?.isAdmin) });
  if (!user?.isAdmin) {
    return (
      <div className="flex flex-col gap-3 py-10 text-center">
        <h1 className="text-3xl font-extrabold">Overview</h1>
        <p className="text-gray-300">Only admins can see this page.</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Overview</h1>
        <Link to="/admin" className="text-sm text-violet-200 underline hover:text-white">
          Back to Admin
        </Link>
      </div>
      {query.isPending ? (
        <LoadingIndicator label="Loading the overview…" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <Overview overview={query.data} />
      )}
    </div>
  );
}

import type { IntegrationPlatform } from '@sticky/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { useAuth } from '@/features/auth';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { notify } from '@/lib/notify.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { integrationsQueryOptions } from './api/integrations.ts';

async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    void notify('success', `${what} copied`);
  } catch {
    void notify('error', `Could not copy the ${what.toLowerCase()}`);
  }
}

function describeLastRequest(lastRequest: IntegrationPlatform['lastRequest']): string {
  if (!lastRequest) return 'None yet.';
  const at = new Date(lastRequest.at).toLocaleString();
  return lastRequest.isVerified
    ? `${at}: verified.`
    : `${at}: refused, its signature or token did not verify.`;
}

function PlatformSection({ platform }: { platform: IntegrationPlatform }) {
  const headingId = `integration-${platform.platform}`;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-white/10 bg-white/5 p-5"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          {platform.name}
        </h2>
        <span
          className={
            platform.isConfigured
              ? 'rounded-full bg-emerald-900 px-3 py-0.5 text-sm text-emerald-100'
              : 'rounded-full bg-gray-800 px-3 py-0.5 text-sm text-gray-200'
          }
        >
          {platform.isConfigured ? 'Configured' : 'Not configured'}
        </span>
      </div>
      {platform.endpoints.length > 0 && (
        <div className="flex flex-col gap-2">
          <h3 className="font-semibold">Endpoints</h3>
          <dl className="flex flex-col gap-2 text-sm">
            {platform.endpoints.map((endpoint) => (
              <div key={endpoint.url} className="flex flex-col gap-1">
                <dt className="text-gray-300">{endpoint.label}</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  <code className="break-all text-white">{endpoint.url}</code>
                  <button
                    type="button"
                    className={buttonStyles.smallSecondary}
                    onClick={() => void copyText(endpoint.url, 'URL')}
                  >
                    Copy<span className="sr-only"> {endpoint.label}</span>
                  </button>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      <div className="flex flex-col gap-1 text-sm">
        <h3 className="font-semibold">Last request</h3>
        <p className="text-gray-200">{describeLastRequest(platform.lastRequest)}</p>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <h3 className="font-semibold">Settings</h3>
        <ul className="flex flex-wrap gap-x-4 gap-y-1">
          {platform.settings.map((setting) => (
            <li key={setting.name}>
              <code>{setting.name}</code>{' '}
              <span className="text-gray-300">{setting.isSet ? 'set' : 'not set'}</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <h3 className="font-semibold">Setup</h3>
        <ol className="list-decimal space-y-1 pl-5 text-gray-200">
          {platform.setupSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
      {platform.manifest && (
        <div className="flex flex-col gap-2 text-sm">
          <div className="flex items-center gap-3">
            <h3 className="font-semibold">App manifest</h3>
            <button
              type="button"
              className={buttonStyles.smallSecondary}
              onClick={() => void copyText(platform.manifest!.text, 'Manifest')}
            >
              Copy manifest
            </button>
          </div>
          <textarea
            readOnly
            rows={14}
            spellCheck={false}
            aria-label={`${platform.name} app manifest`}
            value={platform.manifest.text}
            className="w-full rounded-lg border border-white/15 bg-gray-950 p-3 font-mono text-xs text-gray-100 focus-visible:outline-2 focus-visible:outline-violet-400"
          />
        </div>
      )}
      {platform.notes.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 text-sm text-gray-300">
          {platform.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function IntegrationsList() {
  const integrations = useQuery(integrationsQueryOptions());
  if (integrations.isPending) return <LoadingIndicator label="Loading integrations…" />;
  if (integrations.error) {
    return (
      <ErrorState
        message={integrations.error.message}
        onRetry={() => void integrations.refetch()}
      />
    );
  }
  const { platforms, rating } = integrations.data;
  return (
    <>
      <p className="text-gray-200">
        People type <code>/sticky</code> and their words in a chat and get a GIF from this catalog:
        public items rated {rating.toUpperCase()} or lower only. Each platform is off until its
        settings are set; see docs/integrations.md.
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        {platforms.map((platform) => (
          <PlatformSection key={platform.platform} platform={platform} />
        ))}
      </div>
    </>
  );
}

/** Admin → Integrations (docs/integrations.md): the chat platforms and how to set each up. */
export function IntegrationsPage() {
  useDocumentTitle('Integrations');
  const { user } = useAuth();
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-3xl font-extrabold">Integrations</h1>
        <Link to="/admin" className="text-violet-300 underline hover:text-violet-200">
          Back to Admin
        </Link>
      </div>
      {user?.isAdmin ? (
        <IntegrationsList />
      ) : (
        <p className="text-gray-300">Only admins can see this page.</p>
      )}
    </div>
  );
}

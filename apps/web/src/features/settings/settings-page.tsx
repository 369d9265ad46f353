import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Download, KeyRound, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { notify } from '@/lib/notify.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { createToken, revokeToken, tokensQueryKey, tokensQueryOptions } from './api/tokens.ts';
import { buildCurlExample, buildShareXConfig } from './uploader-config.ts';

const fieldClass =
  'w-full rounded-lg border border-white/15 bg-gray-950 px-3 py-2 text-sm text-white ' +
  'placeholder:text-gray-500 focus-visible:outline-2 focus-visible:outline-violet-400';

async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    void notify('success', `${what} copied`);
  } catch {
    void notify('error', `Could not copy the ${what.toLowerCase()}`);
  }
}

function downloadText(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

function CodeBlock({ label, code }: { label: string; code: string }) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-gray-200">{label}</figcaption>
      <pre className="rounded-lg border border-white/10 bg-gray-950 p-3 text-xs break-all whitespace-pre-wrap text-gray-100">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** The secret of a token just made, with what to do with it: shown once. */
function NewToken({ secret, onDone }: { secret: string; onDone: () => void }) {
  const origin = window.location.origin;
  const curl = buildCurlExample(origin, secret);
  const shareX = buildShareXConfig(origin, secret);
  return (
    <section
      aria-labelledby="new-token-heading"
      className="flex flex-col gap-3 rounded-2xl border border-emerald-400/40 bg-emerald-400/5 p-4"
    >
      <h3 id="new-token-heading" className="font-bold text-white">
        Your new token
      </h3>
      <p className="text-sm text-gray-200">
        Copy it now: it is shown only once. Anyone who has it can upload as you.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="rounded-lg bg-gray-950 px-3 py-2 text-sm break-all text-emerald-100">
          {secret}
        </code>
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => void copyText(secret, 'Token')}
        >
          <Copy className="size-4" aria-hidden="true" />
          Copy token
        </button>
      </div>
      <CodeBlock label="Upload with curl" code={curl} />
      <CodeBlock label="ShareX custom uploader (sticky.sxcu)" code={shareX} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => void copyText(curl, 'Command')}
        >
          <Copy className="size-4" aria-hidden="true" />
          Copy curl command
        </button>
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => downloadText('sticky.sxcu', shareX)}
        >
          <Download className="size-4" aria-hidden="true" />
          Download ShareX uploader
        </button>
        <button type="button" className={buttonStyles.ghost} onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/**
 * Settings (docs/web.md, "Settings"): personal API tokens to upload from scripts and tools,
 * with a curl example and a ShareX uploader that work as shown.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQueryOptions());
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const nameId = useId();
  const create = useMutation({
    mutationFn: () => createToken(name),
    onSuccess: async (made) => {
      setSecret(made.secret);
      setName('');
      await queryClient.invalidateQueries({ queryKey: tokensQueryKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeToken(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: tokensQueryKey });
      void notify('success', 'Token revoked');
    },
    onError: (error) => void notify('error', error.message),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && !create.isPending) create.mutate();
  };

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <h1 className="text-3xl font-extrabold">Settings</h1>
      <section aria-labelledby="tokens-heading" className="flex flex-col gap-4">
        <h2 id="tokens-heading" className="flex items-center gap-2 text-xl font-bold">
          <KeyRound className="size-5" aria-hidden="true" />
          API tokens
        </h2>
        <p className="text-sm text-gray-300">
          A token lets a script or a tool such as ShareX upload as you, with{' '}
          <code>Authorization: Bearer</code>. Revoke it when you no longer use it.
        </p>
        <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-56 flex-1 flex-col gap-1">
            <label htmlFor={nameId} className="text-sm font-medium text-gray-200">
              Token name
            </label>
            <input
              id={nameId}
              value={name}
              maxLength={100}
              required
              placeholder="ShareX on my laptop"
              onChange={(event) => setName(event.target.value)}
              className={fieldClass}
            />
          </div>
          <button type="submit" className={buttonStyles.primary} aria-disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create token'}
          </button>
        </form>
        {create.error && (
          <p role="alert" className="text-sm text-red-300">
            {create.error.message}
          </p>
        )}
        {secret && <NewToken secret={secret} onDone={() => setSecret(null)} />}
        {tokens.isPending ? (
          <LoadingIndicator label="Loading tokens…" />
        ) : tokens.error ? (
          <ErrorState message={tokens.error.message} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-gray-400">No tokens yet.</p>
        ) : (
          <ul aria-label="Your API tokens" className="flex flex-col gap-2">
            {tokens.data.map((token) => (
              <li
                key={token.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-white/10 bg-white/5 px-4 py-3"
              >
                <div className="flex min-w-0 flex-col">
                  <span className="truncate font-semibold text-white">{token.name}</span>
                  <span className="text-xs text-gray-400">
                    Created {new Date(token.createdAt).toLocaleDateString()} ·{' '}
                    {token.lastUsedAt
                      ? `last used ${new Date(token.lastUsedAt).toLocaleString()}`
                      : 'never used'}
                  </span>
                </div>
                <button
                  type="button"
                  className={`${buttonStyles.secondary} px-3 py-1.5 text-xs`}
                  aria-disabled={revoke.isPending}
                  onClick={() => !revoke.isPending && revoke.mutate(token.id)}
                >
                  <Trash2 className="size-3.5" aria-hidden="true" />
                  Revoke<span className="sr-only"> {token.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

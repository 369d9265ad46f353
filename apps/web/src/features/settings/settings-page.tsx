import { itemVisibilityLabels, tokenLifetimeDays } from '@sticky/contracts';
import type { ApiToken, ItemVisibility, TokenScope } from '@sticky/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Download, KeyRound, Terminal, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { VisibilityChoice } from '@/components/visibility-choice.tsx';
import { useAuth } from '@/features/auth';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { notify } from '@/lib/notify.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { AccountAccess } from './account-access.tsx';
import { createToken, revokeToken, tokensQueryKey, tokensQueryOptions } from './api/tokens.ts';
import { TokenScopesField } from './token-scopes-field.tsx';
import { tokenLifetimeOptions, tokenScopeTexts } from './token-scopes.ts';
import { buildCurlExample, buildShareXConfig, tokenPlaceholder } from './uploader-config.ts';

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

/** When a token stops working, or did: its owner sees why a script stopped. */
function describeExpiry(expiresAt: string): { text: string; isExpired: boolean } {
  const date = new Date(expiresAt);
  const isExpired = date.getTime() <= Date.now();
  return {
    text: `${isExpired ? 'expired' : 'expires'} ${date.toLocaleDateString()}`,
    isExpired,
  };
}

/** A command or file to copy as it is: its caption names it (the figure's accessible name). */
function CodeBlock({ label, code }: { label: string; code: string }) {
  const captionId = useId();
  return (
    <figure aria-labelledby={captionId} className="flex flex-col gap-1">
      <figcaption id={captionId} className="text-sm font-medium text-gray-200">
        {label}
      </figcaption>
      <pre className="rounded-lg border border-white/10 bg-gray-950 p-3 text-xs break-all whitespace-pre-wrap text-gray-100">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** The secret of a token just made: shown once. */
function NewToken({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <section
      aria-labelledby="new-token-heading"
      className="flex flex-col gap-3 rounded-2xl border border-emerald-400/40 bg-emerald-400/5 p-4"
    >
      <h3 id="new-token-heading" className="font-bold text-white">
        Your new token
      </h3>
      <p className="text-sm text-gray-200">
        Copy it now: it is shown only once. Anyone who has it can do what you let it do, as you,
        until it expires. The curl command and the ShareX uploader below hold it until you press
        Done.
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
        <button type="button" className={buttonStyles.ghost} onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/**
 * How to upload from a script or ShareX, shown before any token is made (with a placeholder
 * where the token goes) so a person sees what a token is for; with the real token once made.
 */
function UploaderExamples({ secret }: { secret: string | null }) {
  const origin = window.location.origin;
  const token = secret ?? tokenPlaceholder;
  const curl = buildCurlExample(origin, token);
  const shareX = buildShareXConfig(origin, token);
  return (
    <section aria-labelledby="uploaders-heading" className="flex flex-col gap-3">
      <h2 id="uploaders-heading" className="flex items-center gap-2 text-xl font-bold">
        <Terminal className="size-5" aria-hidden="true" />
        Upload from scripts and tools
      </h2>
      <p className="text-sm text-gray-300">
        {secret ? (
          'These hold the token you just made: copy them as they are.'
        ) : (
          <>
            Create a token above and it is filled in here; or replace{' '}
            <code className="text-gray-100">{tokenPlaceholder}</code> with a token you kept.
          </>
        )}{' '}
        In the curl command, <code className="text-gray-100">cat.gif</code> is the file to send.
      </p>
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
      </div>
    </section>
  );
}

/** Asks before revoking: scripts and tools that use the token stop working at once. */
function RevokeTokenDialog({
  token,
  onClose,
  onRevoked,
}: {
  token: ApiToken | null;
  onClose: () => void;
  onRevoked: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: string) => revokeToken(id),
    onSuccess: async ({ id }) => {
      await queryClient.invalidateQueries({ queryKey: tokensQueryKey });
      onRevoked(id);
      onClose();
      void notify('success', 'Token revoked');
    },
  });
  return (
    <ConfirmDialog
      title="Revoke this token?"
      description={
        token
          ? `Scripts and tools that use “${token.name}” can no longer act as you. This cannot be undone.`
          : undefined
      }
      open={token !== null}
      onOpenChange={(isOpen) => {
        if (isOpen) return;
        revoke.reset();
        onClose();
      }}
      error={revoke.error}
      isPending={revoke.isPending}
      label="Revoke token"
      pendingLabel="Revoking…"
      onConfirm={() => token && revoke.mutate(token.id)}
    />
  );
}

/**
 * Settings (docs/web.md, "Upload"): personal API tokens to upload from scripts and tools,
 * with a curl example and a ShareX uploader that work as shown.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQueryOptions());
  const { user } = useAuth();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['upload']);
  const [expiresInDays, setExpiresInDays] = useState<number>(tokenLifetimeDays.default);
  const [formError, setFormError] = useState<{ field: 'name' | 'scopes'; text: string } | null>(
    null,
  );
  // A token's uploads are unlisted unless the person picks otherwise (docs/uploads.md,
  // "Visibility"): a screenshot tool should not publish to everyone by default.
  const [visibility, setVisibility] = useState<ItemVisibility>('unlisted');
  const [made, setMade] = useState<{ id: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const nameId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const expiryId = useId();
  const formErrorId = useId();
  const create = useMutation({
    mutationFn: () => createToken({ name, scopes, expiresInDays, visibility }),
    onSuccess: async (response) => {
      setMade({ id: response.token.id, secret: response.secret });
      setName('');
      setScopes(['upload']);
      setExpiresInDays(tokenLifetimeDays.default);
      await queryClient.invalidateQueries({ queryKey: tokensQueryKey });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    if (!name.trim()) {
      setFormError({ field: 'name', text: 'Name the token, so you know later what uses it.' });
    } else if (scopes.length === 0) {
      setFormError({ field: 'scopes', text: 'Choose at least one thing the token may do.' });
    } else {
      setFormError(null);
      create.mutate();
    }
  };

  return (
    <div className="flex max-w-3xl flex-col gap-8">
      <h1 className="text-3xl font-extrabold">Settings</h1>
      <section aria-labelledby="tokens-heading" className="flex flex-col gap-4">
        <h2 id="tokens-heading" className="flex items-center gap-2 text-xl font-bold">
          <KeyRound className="size-5" aria-hidden="true" />
          API tokens
        </h2>
        <p className="text-sm text-gray-300">
          A token lets a script or a tool such as ShareX act as you, with{' '}
          <code>Authorization: Bearer</code>, but only in the ways you choose, and until it expires.
          Revoke it when you no longer use it.
        </p>
        <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-x-2 gap-y-4">
          <div className="w-full">
            <VisibilityChoice
              legend="Who can see what is uploaded with this token"
              value={visibility}
              onChange={setVisibility}
            />
          </div>
          <div className="flex min-w-56 flex-1 flex-col gap-1">
            <label htmlFor={nameId} className="text-sm font-medium text-gray-200">
              Token name
            </label>
            <input
              ref={nameRef}
              id={nameId}
              value={name}
              maxLength={100}
              required
              aria-invalid={formError?.field === 'name' ? true : undefined}
              aria-describedby={formError?.field === 'name' ? formErrorId : undefined}
              placeholder="ShareX on my laptop"
              onChange={(event) => setName(event.target.value)}
              className={fieldClass}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={expiryId} className="text-sm font-medium text-gray-200">
              Expires after
            </label>
            <select
              id={expiryId}
              value={expiresInDays}
              onChange={(event) => setExpiresInDays(Number(event.target.value))}
              className={fieldClass}
            >
              {tokenLifetimeOptions.map((option) => (
                <option key={option.days} value={option.days}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <div className="w-full">
            <TokenScopesField
              scopes={scopes}
              isAdmin={user?.isAdmin ?? false}
              errorId={formError?.field === 'scopes' ? formErrorId : undefined}
              onChange={setScopes}
            />
          </div>
          <button type="submit" className={buttonStyles.primary} aria-disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create token'}
          </button>
        </form>
        {formError && (
          <p id={formErrorId} role="alert" className="text-sm text-red-300">
            {formError.text}
          </p>
        )}
        {create.error && (
          <p role="alert" className="text-sm text-red-300">
            {create.error.message}
          </p>
        )}
        {made && <NewToken secret={made.secret} onDone={() => setMade(null)} />}
        {tokens.isPending ? (
          <LoadingIndicator label="Loading tokens…" />
        ) : tokens.error ? (
          <ErrorState message={tokens.error.message} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <div className="flex flex-col items-start gap-2 rounded-xl border border-dashed border-white/20 px-4 py-4">
            <p className="text-sm text-gray-300">No tokens yet.</p>
            <p className="text-sm text-gray-300">
              Name one above, choose what it may do, and create it to upload from ShareX or a
              script.
            </p>
            {/* The form is right above: this takes the person to its first field. */}
            <button
              type="button"
              className={`${buttonStyles.secondary} px-3 py-1.5 text-sm`}
              onClick={() => nameRef.current?.focus()}
            >
              <KeyRound className="size-4" aria-hidden="true" />
              Create your first token
            </button>
          </div>
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
                    {itemVisibilityLabels[token.visibility]} · Created{' '}
                    {new Date(token.createdAt).toLocaleDateString()} ·{' '}
                    {token.lastUsedAt
                      ? `last used ${new Date(token.lastUsedAt).toLocaleString()}`
                      : 'never used'}{' '}
                    ·{' '}
                    <span
                      className={
                        describeExpiry(token.expiresAt).isExpired ? 'text-red-300' : undefined
                      }
                    >
                      {describeExpiry(token.expiresAt).text}
                    </span>
                  </span>
                  <span className="text-xs text-gray-300">
                    May: {token.scopes.map((scope) => tokenScopeTexts[scope].label).join(', ')}
                  </span>
                </div>
                <button
                  type="button"
                  className={buttonStyles.smallSecondary}
                  onClick={() => setRevoking(token)}
                >
                  <Trash2 className="size-3.5" aria-hidden="true" />
                  Revoke<span className="sr-only"> {token.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <RevokeTokenDialog
          token={revoking}
          onClose={() => setRevoking(null)}
          // A revoked token is no use in the examples: they go back to the placeholder.
          onRevoked={(id) => setMade((current) => (current?.id === id ? null : current))}
        />
      </section>
      <UploaderExamples secret={made?.secret ?? null} />
      <AccountAccess onTokensRevoked={() => setMade(null)} />
    </div>
  );
}

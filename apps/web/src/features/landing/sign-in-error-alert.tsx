import { parseSignInErrorCode, signInErrorMessages } from '@sticky/contracts';
import { CircleAlert, X } from 'lucide-react';
import { useSearchParams } from 'react-router';

/** Explains why sign-in failed (`/landing?error=<code>` from the server); unknown codes are ignored. */
export function SignInErrorAlert() {
  const [searchParams, setSearchParams] = useSearchParams();
  const code = parseSignInErrorCode(searchParams.get('error'));
  if (!code) return null;

  const dismiss = () => {
    const next = new URLSearchParams(searchParams);
    next.delete('error');
    setSearchParams(next, { replace: true });
  };

  return (
    <div
      role="alert"
      className="mx-auto mt-6 flex max-w-3xl items-start gap-3 rounded-2xl border border-rose-400/40 bg-rose-950/60 p-4 text-rose-50"
    >
      <CircleAlert className="mt-0.5 size-5 shrink-0 text-rose-300" aria-hidden="true" />
      <div className="flex-1">
        <p className="font-semibold">We couldn&apos;t sign you in</p>
        <p className="mt-1 text-sm text-rose-100">{signInErrorMessages[code]}</p>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label="Dismiss"
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-full text-rose-200 hover:bg-white/10 hover:text-white"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

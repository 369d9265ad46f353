import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { mainContentId } from '@/components/landmarks.ts';
import { Logo } from '@/components/logo.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** A lazy chunk that no longer exists: the server was updated while this tab was open. */
function isStaleChunkError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

function describeError(error: unknown): { title: string; text: string } {
  if (isStaleChunkError(error)) {
    return {
      title: 'Sticky has been updated',
      text: 'Reload the page to get the new version.',
    };
  }
  // A screen that fails on purpose says why in its message.
  if (error instanceof Error && error.message) {
    return { title: error.message, text: 'Try another page, or reload this one.' };
  }
  return {
    title: 'Something went wrong',
    text: 'Try again, or go back to the home page.',
  };
}

interface ErrorPageProps {
  error: unknown;
}

/** A failed screen, shown inside the layout (header and footer stay usable). */
export function RouteError({ error }: ErrorPageProps) {
  const { title, text } = describeError(error);
  useDocumentTitle(title);
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-3xl font-bold text-white">{title}</h1>
      <p className="mt-3 text-gray-300">{text}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button
          type="button"
          className={buttonStyles.primary}
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
        <Link to="/" className={buttonStyles.secondary}>
          Go to the home page
        </Link>
      </div>
    </div>
  );
}

/** The layout itself failed: a bare page that depends on nothing else. */
export function RootError({ error }: ErrorPageProps) {
  return (
    <main id={mainContentId} className="flex-1 px-4">
      <div className="pt-6">
        <Logo />
      </div>
      <RouteError error={error} />
    </main>
  );
}

/** Spec-less addresses (three or more segments): a 404 inside the layout. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-3xl font-bold text-white">Page not found</h1>
      <p className="mt-3 text-gray-300">
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </p>
      <Link to="/" className={`${buttonStyles.secondary} mt-8`}>
        Go to the home page
      </Link>
    </div>
  );
}

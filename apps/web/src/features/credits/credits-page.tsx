import { credits } from '@sticky/contracts/credits-list';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const linkClass = 'font-medium text-violet-300 underline hover:text-violet-200';

/** The fonts, emoji art and media Sticky ships, with their authors and licences. */
export function CreditsPage() {
  useDocumentTitle('Credits');
  return (
    <div className="mx-auto max-w-4xl py-4">
      <h1 className="text-3xl font-bold text-white">Credits</h1>
      <p className="mt-3 text-gray-300">
        Sticky is built on the work of others. These are the assets it ships or shows, who made them
        and the licences they are used under.
      </p>
      {credits.length === 0 ? (
        <p className="mt-8 rounded-2xl border border-white/10 bg-white/5 p-6 text-gray-300">
          This build ships no third-party fonts, art or media.
        </p>
      ) : (
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          {credits.map((credit) => (
            <li
              key={`${credit.name}-${credit.sourceUrl}`}
              className="rounded-2xl border border-white/10 bg-white/5 p-5"
            >
              <h2 className="text-lg font-semibold text-white">{credit.name}</h2>
              <p className="mt-1 text-sm text-gray-400">by {credit.author}</p>
              <p className="mt-3 text-sm text-gray-300">Used for: {credit.usedFor}</p>
              <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <a
                  href={credit.licenseUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={linkClass}
                >
                  {credit.license}
                  <span className="sr-only"> licence (opens in a new tab)</span>
                </a>
                <a
                  href={credit.sourceUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={linkClass}
                >
                  Source<span className="sr-only"> of {credit.name} (opens in a new tab)</span>
                </a>
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

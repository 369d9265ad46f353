import type { SearchPhraseCount } from '@sticky/contracts';
import { useId } from 'react';

interface PhraseListProps {
  title: string;
  description: string;
  emptyText: string;
  phrases: SearchPhraseCount[];
}

/** Phrases with how many people searched them, each with a bar beside it (a text list first). */
export function PhraseList({ title, description, emptyText, phrases }: PhraseListProps) {
  const id = useId();
  const most = Math.max(1, ...phrases.map((phrase) => phrase.count));
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      <p className="text-sm text-gray-300">{description}</p>
      {phrases.length === 0 ? (
        <p className="text-sm text-gray-300">{emptyText}</p>
      ) : (
        <ol className="flex flex-col gap-1.5">
          {phrases.map((phrase) => (
            <li key={phrase.query} className="flex flex-col gap-0.5 text-sm">
              <span className="flex justify-between gap-3">
                <span className="break-all text-gray-100">{phrase.query}</span>
                <span className="tabular-nums text-gray-300">
                  {phrase.count.toLocaleString('en-US')}
                  <span className="sr-only"> {phrase.count === 1 ? 'person' : 'people'}</span>
                </span>
              </span>
              <span
                aria-hidden="true"
                className="h-1.5 rounded-full bg-violet-500"
                style={{ width: `${(phrase.count / most) * 100}%` }}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

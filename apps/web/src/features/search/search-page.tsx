import { Link, useParams } from 'react-router';
import {
  ContentGrid,
  TypeSwitcher,
  searchQueryOptions,
  useContentFilter,
} from '@/features/content';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const searchColumns = { small: 2, medium: 3, large: 4 };

/**
 * Search results: the query as heading, the switcher on the left, the grid (docs/web.md, "Screens
 * and routes").
 */
export function SearchPage() {
  const { query: rawQuery = '' } = useParams();
  const query = rawQuery.trim();
  const [filter] = useContentFilter();
  useDocumentTitle(query);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-3xl font-extrabold break-words">{query}</h1>
      <TypeSwitcher className="self-start" />
      <ContentGrid
        key={`${filter}:${query}`}
        query={searchQueryOptions(query, filter)}
        columns={searchColumns}
        label={`Results for ${query}`}
        emptyState={
          <p className="py-10 text-center text-zinc-300">
            No Gifs found for {query}.{' '}
            {/* The spec's text stays exact; its question becomes the search it offers. */}
            {filter === 'stickers' ? (
              'Try searching for Stickers instead?'
            ) : (
              <Link
                to={{ search: '?type=stickers' }}
                className="text-violet-200 underline hover:text-white"
              >
                Try searching for Stickers instead?
              </Link>
            )}
          </p>
        }
      />
    </div>
  );
}

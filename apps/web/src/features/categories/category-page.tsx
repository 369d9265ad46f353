import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  ContentGrid,
  ErrorState,
  LoadingIndicator,
  categoriesQueryOptions,
  categoryItemsQueryOptions,
  subcategoriesQueryOptions,
} from '@/features/content';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const categoryColumns = { small: 2, medium: 3, large: 4 };

/**
 * The lazy `/:category` route (docs/web.md, "Screens and routes"): the category's name, its
 * subcategories and a grid of its items. A subcategory is chosen with `?sub=` (a path segment would
 * be caught by `/:type/:slug`); without one, the first subcategory is shown.
 */
export function CategoryPage() {
  const { category = '' } = useParams();
  const [searchParams] = useSearchParams();
  const categories = useQuery(categoriesQueryOptions());
  const subcategories = useQuery(subcategoriesQueryOptions(category));

  const known = categories.data?.find((entry) => entry.name_encoded === category);
  const name = known?.name ?? category.replace(/-/g, ' ');
  const list = subcategories.data ?? [];
  useDocumentTitle(name);
  const requested = searchParams.get('sub');
  const selected =
    list.find((entry) => entry.name_encoded === requested)?.name_encoded ?? list[0]?.name_encoded;

  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-3xl font-extrabold capitalize">{name}</h1>
      {subcategories.isPending ? (
        <LoadingIndicator label="Loading subcategories…" />
      ) : subcategories.error ? (
        <ErrorState
          message={subcategories.error.message}
          onRetry={() => void subcategories.refetch()}
        />
      ) : list.length === 0 ? (
        <p className="text-zinc-300">This category has nothing in it yet.</p>
      ) : (
        <>
          <nav aria-label={`${name} subcategories`}>
            <ul className="flex flex-wrap gap-2">
              {list.map((entry) => {
                const isCurrent = entry.name_encoded === selected;
                return (
                  <li key={entry.name_encoded}>
                    <Link
                      to={{ search: `?sub=${encodeURIComponent(entry.name_encoded)}` }}
                      aria-current={isCurrent ? 'page' : undefined}
                      className={`block rounded-full px-4 py-1.5 text-sm font-semibold capitalize ${
                        isCurrent
                          ? 'bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white'
                          : 'bg-zinc-800 text-zinc-200 hover:bg-zinc-700'
                      }`}
                    >
                      {entry.name}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          {selected && (
            <ContentGrid
              key={selected}
              query={categoryItemsQueryOptions(category, selected)}
              columns={categoryColumns}
              label={`${name}: ${selected.replace(/-/g, ' ')}`}
              emptyState={<p className="py-10 text-center text-zinc-300">Nothing here yet.</p>}
            />
          )}
        </>
      )}
    </div>
  );
}

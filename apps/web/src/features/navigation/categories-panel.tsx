import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorState, LoadingIndicator, categoriesQueryOptions } from '@/features/content';

interface CategoriesPanelProps {
  /** Called when a category link is followed, so the header can close the panel. */
  onNavigate?: () => void;
}

/** The header's categories panel: every category, linking to `/{name_encoded}`. */
export function CategoriesPanel({ onNavigate }: CategoriesPanelProps) {
  const { data, error, isPending, refetch } = useQuery(categoriesQueryOptions());
  if (isPending) return <LoadingIndicator label="Loading categories…" />;
  if (error) return <ErrorState message={error.message} onRetry={() => void refetch()} />;
  if (data.length === 0) return <p className="p-4 text-zinc-300">No categories yet.</p>;
  return (
    <nav aria-label="Categories">
      <ul className="grid grid-cols-2 gap-1 p-2 sm:grid-cols-3 lg:grid-cols-4">
        {data.map((category) => (
          <li key={category.name_encoded}>
            <Link
              to={`/${encodeURIComponent(category.name_encoded)}`}
              onClick={() => onNavigate?.()}
              className="block rounded-md px-3 py-2 capitalize hover:bg-zinc-700"
            >
              {category.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import type { ContentFilter } from '@sticky/contracts';
import { useContentFilter } from '../hooks/use-content-filter.ts';

const options: { value: ContentFilter; label: string }[] = [
  { value: 'gifs', label: 'GIFs' },
  { value: 'stickers', label: 'Stickers' },
  { value: 'text', label: 'Text' },
];

/** The GIFs / Stickers / Text switcher; the choice is kept in the URL (`?type=`). */
export function TypeSwitcher({ className = '' }: { className?: string }) {
  const [filter, setFilter] = useContentFilter();
  return (
    <div
      role="group"
      aria-label="Content type"
      className={`inline-flex rounded-full bg-zinc-800 p-1 ${className}`}
    >
      {options.map((option) => {
        const isSelected = option.value === filter;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={isSelected}
            onClick={() => setFilter(option.value)}
            className={`rounded-full px-4 py-1.5 text-sm font-semibold transition-colors motion-reduce:transition-none ${
              isSelected
                ? 'bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white'
                : 'text-zinc-200 hover:bg-zinc-700'
            }`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}

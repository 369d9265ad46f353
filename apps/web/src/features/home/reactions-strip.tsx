import type { ContentFilter } from '@sticky/contracts';
import { reactions } from '@sticky/contracts/reactions';
import { Link } from 'react-router';

/**
 * The reactions strip (docs/web.md, "Screens and routes"): one chip a reaction, each its
 * search in the type shown, in one row that scrolls sideways on a phone. The list is the
 * contract's (no request on the home page's first screen); the server expands each query by
 * the same synonym map (docs/catalog.md, "Synonyms and emoji").
 */
export function ReactionsStrip({ filter }: { filter: ContentFilter }) {
  return (
    <nav aria-label="Reactions">
      {/* Padding inside the scroller keeps a focused chip's outline from being cut off. */}
      <ul className="-mx-1.5 flex gap-2 overflow-x-auto px-1.5 py-1.5">
        {reactions.map((reaction) => (
          <li key={reaction.query} className="shrink-0">
            <Link
              to={{
                pathname: `/search/${encodeURIComponent(reaction.query)}`,
                search: filter === 'gifs' ? '' : `?type=${filter}`,
              }}
              className="flex items-center gap-1.5 rounded-full bg-zinc-800 px-4 py-1.5 text-sm font-semibold whitespace-nowrap text-zinc-100 capitalize hover:bg-zinc-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
            >
              <span aria-hidden="true">{reaction.emoji}</span>
              {reaction.query}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

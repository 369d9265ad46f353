import {
  ContentGrid,
  TypeSwitcher,
  trendingQueryOptions,
  useContentFilter,
} from '@/features/content';
import { homeGridColumns } from '@sticky/contracts/tile-layout';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import bannerUrl from './banner.svg';
import { ReactionsStrip } from './reactions-strip.tsx';

/**
 * Home (docs/web.md, "Screens and routes"): banner, the reactions strip, the type switcher
 * with the Trending label, trending in masonry.
 */
export function HomePage() {
  const [filter] = useContentFilter();
  useDocumentTitle('Trending');
  return (
    <div className="flex flex-col gap-4">
      <img
        src={bannerUrl}
        alt="Sticky: GIFs, stickers and animated text for every mood"
        width={1200}
        height={200}
        className="h-auto w-full rounded-2xl"
      />
      <ReactionsStrip filter={filter} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-extrabold">Trending</h1>
        <TypeSwitcher />
      </div>
      <ContentGrid
        query={trendingQueryOptions(filter)}
        columns={homeGridColumns}
        label="Trending"
        emptyState={<p className="py-10 text-center text-zinc-300">Nothing is trending yet.</p>}
      />
    </div>
  );
}

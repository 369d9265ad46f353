import { useQueryClient } from '@tanstack/react-query';
import { Download, Heart, Link2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { notify } from '@/lib/notify.ts';
import { downloadMedia, recordItemEvent } from '@/features/content';
import type { ContentItem } from '@/features/content';
import { useFavorites } from '@/features/favorites';

/**
 * The link icon stays highlighted this long after a copy (docs/web.md, "The spec's rules the web
 * keeps").
 */
export const copyHighlightMs = 3000;

function absoluteUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url, window.location.origin).href;
  } catch {
    return undefined;
  }
}

const actionClass =
  'inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-4 py-2 ' +
  'text-sm font-semibold text-gray-100 hover:bg-white/10 disabled:cursor-not-allowed ' +
  'disabled:opacity-60 aria-disabled:cursor-progress';

/**
 * Favorite, copy link and download for one item (docs/web.md, "The spec's rules the web keeps").
 */
export function ItemActions({ item, slug }: { item: ContentItem; slug: string }) {
  const id = String(item.id);
  const queryClient = useQueryClient();
  const { isFavorite, toggleFavorite } = useFavorites();
  const isFav = isFavorite(id);
  // A new value on every copy, so a second copy restarts the highlight.
  const [copiedAt, setCopiedAt] = useState<number | null>(null);
  const isCopied = copiedAt !== null;
  const [isDownloading, setIsDownloading] = useState(false);
  const originalUrl = absoluteUrl(item.images?.original?.url);

  useEffect(() => {
    if (copiedAt === null) return;
    const timer = setTimeout(() => setCopiedAt(null), copyHighlightMs);
    return () => clearTimeout(timer);
  }, [copiedAt]);

  const onCopy = async () => {
    if (!originalUrl) return;
    try {
      await navigator.clipboard.writeText(originalUrl);
    } catch (error) {
      console.error('Copying the link failed', error);
      void notify('error', 'Could not copy the link');
      return;
    }
    setCopiedAt(performance.now());
    void notify('success', 'Link Copied!');
    void recordItemEvent(queryClient, 'copy', id);
  };

  const onDownload = async () => {
    if (!originalUrl || isDownloading) return;
    setIsDownloading(true);
    try {
      await downloadMedia(originalUrl, slug);
      void notify('success', 'Gif Downloaded');
      void recordItemEvent(queryClient, 'download', id);
    } catch (error) {
      console.error('Downloading the item failed', error);
      void notify(
        'error',
        `Download failed: ${error instanceof Error ? error.message : 'please try again'}`,
      );
    } finally {
      setIsDownloading(false);
    }
  };

  return (
    <div role="group" aria-label="Actions" className="flex flex-wrap gap-2 md:flex-col">
      <button
        type="button"
        aria-pressed={isFav}
        onClick={() => toggleFavorite(id)}
        className={actionClass}
      >
        <Heart
          aria-hidden="true"
          className={`size-5 ${isFav ? 'fill-pink-500 text-pink-500' : ''}`}
        />
        Favorite
      </button>
      <button
        type="button"
        onClick={() => void onCopy()}
        disabled={!originalUrl}
        className={actionClass}
      >
        <Link2
          aria-hidden="true"
          data-highlighted={isCopied}
          className={`size-5 transition-colors motion-reduce:transition-none ${
            isCopied ? 'text-emerald-400' : ''
          }`}
        />
        Copy link
      </button>
      <button
        type="button"
        onClick={() => void onDownload()}
        disabled={!originalUrl}
        aria-disabled={isDownloading || undefined}
        className={actionClass}
      >
        <Download aria-hidden="true" className="size-5" />
        Download
      </button>
    </div>
  );
}

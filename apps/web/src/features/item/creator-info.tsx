import { BadgeCheck } from 'lucide-react';
import { useState } from 'react';
import { contentLimits, getItemUser } from '@/features/content';
import type { ContentItem } from '@/features/content';

/** Only web links are shown as links: a catalog must not be able to plant `javascript:`. */
function toWebUrl(value: string | undefined): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function Description({ text }: { text: string }) {
  const [isExpanded, setIsExpanded] = useState(false);
  const limit = contentLimits.descriptionPreview;
  const isLong = text.length > limit;
  return (
    <div className="text-sm text-gray-300">
      <p className="break-words whitespace-pre-line">
        {isExpanded || !isLong ? text : `${text.slice(0, limit)}...`}
      </p>
      {isLong && (
        <button
          type="button"
          aria-expanded={isExpanded}
          onClick={() => setIsExpanded((value) => !value)}
          className="mt-1 font-semibold text-violet-300 hover:text-violet-200"
        >
          {isExpanded ? 'Read Less' : 'Read More'}
        </button>
      )}
    </div>
  );
}

/** The item's left column: who posted it, what they say, where it comes from. */
export function CreatorInfo({ item }: { item: ContentItem }) {
  const user = getItemUser(item);
  const source = toWebUrl(item.source);
  return (
    <div className="flex flex-col gap-4">
      {user ? (
        <section aria-label="Creator" className="flex flex-col gap-3">
          <div className="flex items-center gap-3">
            {user.avatar_url ? (
              <img
                src={user.avatar_url}
                alt=""
                width={56}
                height={56}
                className="size-14 rounded-full bg-white/10 object-cover"
              />
            ) : (
              <span
                aria-hidden="true"
                className="flex size-14 items-center justify-center rounded-full bg-violet-500 text-xl font-bold"
              >
                {(user.display_name || user.username || '?').charAt(0).toUpperCase()}
              </span>
            )}
            <div className="min-w-0">
              <p className="flex items-center gap-1 font-bold break-words">
                {user.display_name || user.username}
                {user.is_verified && (
                  <BadgeCheck aria-label="Verified" className="size-4 text-violet-300" />
                )}
              </p>
              {user.username && <p className="text-sm text-gray-400">@{user.username}</p>}
            </div>
          </div>
          {user.description && <Description text={user.description} />}
        </section>
      ) : (
        <p className="text-gray-300">No user Found</p>
      )}
      <section aria-label="Source" className="text-sm">
        <h2 className="font-semibold text-gray-200">Source</h2>
        {source ? (
          <a
            href={source.href}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all text-violet-300 underline hover:text-violet-200"
          >
            {item.source_tld || source.hostname}
          </a>
        ) : (
          <p className="text-gray-400">No source available</p>
        )}
      </section>
    </div>
  );
}

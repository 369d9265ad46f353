import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ItemRights } from '@sticky/contracts/first-screen';
import { EyeOff, Flag, Lock } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import {
  ContentGrid,
  ErrorState,
  getCaption,
  LoadingIndicator,
  getIdFromSlug,
  getItemType,
  isItemType,
  itemQueryOptions,
  recordItemEvent,
  relatedQueryOptions,
} from '@/features/content';
import type { ContentItem } from '@/features/content';
import { useAuth } from '@/features/auth';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { itemRightsQueryOptions } from './api/item-rights.ts';
import { CreatorInfo } from './creator-info.tsx';
import { ItemActions } from './item-actions.tsx';
import { ItemMedia } from './item-media.tsx';

const relatedColumns = { small: 2, medium: 3, large: 3 };

// Edit, Hide and Delete are for an item's owner and admins: their code comes only for them.
const ItemManageActions = lazy(() =>
  import('@/features/uploads').then((module) => ({ default: module.ItemManageActions })),
);

// The report form (and the contracts it validates with) comes only when someone opens it.
const ReportDialog = lazy(() =>
  import('./report-dialog.tsx').then((module) => ({ default: module.ReportDialog })),
);

/** Report, for signed-in people who do not manage the item (docs/security.md, "Moderation"). */
function ReportAction({ itemId }: { itemId: string }) {
  const [isOpen, setIsOpen] = useState(false);
  // Kept mounted once loaded, so closing it hands focus back to the button (Radix).
  const [hasOpened, setHasOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setHasOpened(true);
          setIsOpen(true);
        }}
        className="inline-flex items-center gap-2 self-start rounded-full px-4 py-2 text-sm text-gray-300 hover:bg-white/10 hover:text-white"
      >
        <Flag aria-hidden="true" className="size-4" />
        Report
      </button>
      {hasOpened && (
        <Suspense fallback={null}>
          <ReportDialog itemId={itemId} open={isOpen} onOpenChange={setIsOpen} />
        </Suspense>
      )}
    </>
  );
}

/**
 * Says who sees an item withheld from everyone else: only its owner and admins open a private
 * or hidden item's page (docs/uploads.md, "Visibility").
 */
function WithheldNote({ rights }: { rights: ItemRights }) {
  const { user } = useAuth();
  const isOwn = rights.ownerId !== null && rights.ownerId === user?.id;
  const noteClass = 'flex items-center gap-2 text-sm text-amber-200';
  return (
    <>
      {rights.visibility === 'private' && (
        <p className={noteClass}>
          <Lock aria-hidden="true" className="size-4" />
          {isOwn ? 'Only you can see this' : 'Private: only its owner and admins can see this'}
        </p>
      )}
      {rights.isHidden && (
        <p className={noteClass}>
          <EyeOff aria-hidden="true" className="size-4" />
          Hidden by an admin: only its owner and admins can see this
        </p>
      )}
    </>
  );
}

/** The words written inside the image, as Sticky read them or its owner corrected them. */
function ItemCaption({ item }: { item: ContentItem }) {
  const caption = getCaption(item);
  if (!caption) return null;
  const noun = getItemType(item) === 'gif' ? 'GIF' : 'sticker';
  return (
    <section aria-labelledby="caption-heading" className="mt-3 flex flex-col gap-1">
      <h2 id="caption-heading" className="text-sm font-semibold text-gray-300">
        Text in this {noun}
      </h2>
      <p className="break-words text-gray-100">{caption}</p>
    </section>
  );
}

function RelatedItems({ item }: { item: ContentItem }) {
  return (
    <section aria-labelledby="related-heading" className="flex flex-col gap-3">
      <h2 id="related-heading" className="text-xl font-bold">
        Related Gifs
      </h2>
      <ContentGrid
        query={relatedQueryOptions(String(item.id), getItemType(item))}
        columns={relatedColumns}
        skipFirst
        label="Related Gifs"
        emptyState={<p className="py-6 text-gray-300">No related Gifs found</p>}
      />
    </section>
  );
}

function ItemDetail({ id, slug }: { id: string; slug: string }) {
  const queryClient = useQueryClient();
  const { data: item, error, isPending, refetch } = useQuery(itemQueryOptions(id));
  // Every visitor asks what they may do (a few bytes); only those who may get the code for it.
  const { data: rights } = useQuery({ ...itemRightsQueryOptions(id), enabled: Boolean(item) });
  const canManage = Boolean(rights && (rights.canEdit || rights.canDelete || rights.canHide));
  // A private or hidden item is in no list, related included (docs/uploads.md, "Visibility").
  const isWithheld = rights?.visibility === 'private' || rights?.isHidden === true;
  useDocumentTitle(item ? item.title || 'Untitled' : undefined);

  useEffect(() => {
    if (item) void recordItemEvent(queryClient, 'view', String(item.id));
  }, [item, queryClient]);

  if (isPending) return <LoadingIndicator />;
  if (error) return <ErrorState message={error.message} onRetry={() => void refetch()} />;

  return (
    <div className="flex flex-col gap-8">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
        {/* The GIF comes first in the page, so a phone shows it before the creator; wide
            screens still put the creator in the left column. */}
        <div className="flex min-w-0 flex-col gap-3 lg:col-start-2 lg:row-start-1">
          <h1 className="text-2xl font-extrabold break-words">{item.title || 'Untitled'}</h1>
          {rights && <WithheldNote rights={rights} />}
          <div className="flex flex-col gap-3 md:flex-row md:items-start">
            <div className="min-w-0 flex-1">
              <ItemMedia item={item} />
              <ItemCaption item={item} />
            </div>
            <div className="flex flex-col gap-4">
              <ItemActions item={item} slug={slug} />
              {canManage && (
                <Suspense fallback={null}>
                  <ItemManageActions itemId={String(item.id)} />
                </Suspense>
              )}
              {rights && !rights.canEdit && <ReportAction itemId={String(item.id)} />}
            </div>
          </div>
        </div>
        <aside className="lg:col-start-1 lg:row-start-1">
          <CreatorInfo item={item} />
        </aside>
      </div>
      {!isWithheld && <RelatedItems key={String(item.id)} item={item} />}
    </div>
  );
}

function InvalidContentType() {
  useDocumentTitle('Invalid Content Type');
  return (
    <div role="alert" className="py-10 text-center">
      <h1 className="text-2xl font-bold">Invalid Content Type</h1>
    </div>
  );
}

/**
 * The item, `/:type/:slug` (docs/web.md, "Screens and routes"): the type is checked, the id is the
 * slug's end.
 */
export function ItemPage() {
  const { type, slug = '' } = useParams();
  if (!isItemType(type)) return <InvalidContentType />;
  const id = getIdFromSlug(slug);
  return <ItemDetail key={id} id={id} slug={slug} />;
}

import { formatBytes, itemVisibilityLabels, itemVisibilitySchema } from '@sticky/contracts';
import type { ItemVisibility, Upload, Uploader, UploadState } from '@sticky/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, Eye, EyeOff, Link2, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { useAuth } from '@/features/auth';
import { ErrorState, LoadingIndicator, usePrefersReducedMotion } from '@/features/content';
import { isApiClientError } from '@/lib/api-client.ts';
import { notify } from '@/lib/notify.ts';
import { ownedItemQueryOptions, refreshAfterItemChange, updateItem } from '../api/owned-item.ts';
import { uploadsQueryOptions } from '../api/uploads-list.ts';
import type { UploadsScope } from '../api/uploads-list.ts';
import { getItemPagePath, getItemPageUrl } from '../item-links.ts';
import { BanUploaderDialog } from './ban-uploader-dialog.tsx';
import { DeleteItemDialog } from './delete-item-dialog.tsx';
import { EditItemDialog } from './edit-item-dialog.tsx';
import { NextPageButton } from './next-page-button.tsx';
import { StateFilter } from './state-filter.tsx';
import { UploadStateBadge } from './upload-state-badge.tsx';

const stateFilters: Array<{ value: UploadState | undefined; label: string }> = [
  { value: undefined, label: 'All' },
  { value: 'processing', label: 'Processing' },
  { value: 'ready', label: 'Ready' },
  { value: 'failed', label: 'Failed' },
  { value: 'hidden', label: 'Hidden' },
];

/** Admins stop a person's uploads from the row of one of them (docs/security.md). */
function BanUploaderAction({ person }: { person: Uploader }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`${buttonStyles.smallSecondary} self-start`}
        onClick={() => setIsOpen(true)}
      >
        <Ban className="size-3.5" aria-hidden="true" />
        Stop uploads<span className="sr-only"> by {person.name}</span>
      </button>
      <BanUploaderDialog person={person} open={isOpen} onOpenChange={setIsOpen} />
    </>
  );
}

const isNotFound = (error: unknown) => isApiClientError(error) && error.status === 404;

function UploadRow({ upload, scope }: { upload: Upload; scope: UploadsScope }) {
  const queryClient = useQueryClient();
  const [isEditing, setIsEditing] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const titleId = useId();
  const { itemId, details } = upload;
  const hasItem = itemId !== null && (upload.state === 'ready' || upload.state === 'hidden');
  // A private item's page opens for its owner and admins only: linked here, but no link to
  // share, since it is 404 for anyone it would be sent to (docs/uploads.md, "Visibility").
  const hasPage = hasItem && upload.state === 'ready';
  const canShare = hasPage && upload.visibility !== 'private';
  // An upload's item may not be the person's: a file already in Sticky (someone else's, or
  // imported) answers with that item. Admins may edit any; anyone else asks the item
  // (`GET /api/items/:id`) what they may do, and is offered only that.
  const { user } = useAuth();
  const isAdmin = user?.isAdmin === true;
  const rights = useQuery({
    ...ownedItemQueryOptions(itemId ?? ''),
    enabled: hasItem && !isAdmin,
    retry: false,
  });
  const canEdit = hasItem && (isAdmin || rights.data?.canEdit === true);
  const canDelete = hasItem && (isAdmin || rights.data?.canDelete === true);
  const isSomeoneElses =
    hasItem && !isAdmin && (rights.data?.canEdit === false || isNotFound(rights.error));
  const preview = usePrefersReducedMotion() ? upload.previewStillUrl : upload.previewUrl;
  const toggleHidden = useMutation({
    mutationFn: () => updateItem(itemId!, { isHidden: upload.state !== 'hidden' }),
    onSuccess: async (item) => {
      await refreshAfterItemChange(queryClient, item.id);
      void notify('success', item.isHidden ? 'Item hidden' : 'Item visible again');
    },
    onError: (error) => void notify('error', error.message),
  });
  const changeVisibility = useMutation({
    mutationFn: (visibility: ItemVisibility) => updateItem(itemId!, { visibility }),
    onSuccess: async (item) => {
      await refreshAfterItemChange(queryClient, item.id);
      void notify('success', `Now: ${itemVisibilityLabels[item.visibility].toLowerCase()}`);
    },
    onError: (error) => void notify('error', error.message),
  });
  const visibilityId = useId();
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(getItemPageUrl(itemId!, details.type));
      void notify('success', 'Link Copied!');
    } catch {
      void notify('error', 'Could not copy the link');
    }
  };
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-xl border border-white/10 bg-white/5 p-3 sm:flex-row sm:items-center"
    >
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-gray-950">
        {preview ? (
          <img src={preview} alt={details.title} className="size-full object-contain" />
        ) : (
          <span className="text-xs text-gray-400">No preview</span>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          {hasPage ? (
            <Link
              id={titleId}
              to={getItemPagePath(itemId!, details.type)}
              className="truncate font-semibold text-white hover:underline"
            >
              {details.title}
            </Link>
          ) : (
            <span id={titleId} className="truncate font-semibold text-white">
              {details.title}
            </span>
          )}
          <UploadStateBadge state={upload.state} />
        </div>
        <p className="truncate text-xs text-gray-400">
          {upload.fileName} · {formatBytes(upload.bytes)} ·{' '}
          <time dateTime={upload.createdAt}>{new Date(upload.createdAt).toLocaleString()}</time>
          {upload.uploader && (
            <>
              {' · by '}
              <span className="text-gray-200">
                {upload.uploader.name} ({upload.uploader.email})
              </span>
            </>
          )}
        </p>
        {scope === 'everyone' && upload.uploader && upload.uploader.id !== user?.id && (
          <BanUploaderAction person={upload.uploader} />
        )}
        {upload.reason && <p className="text-sm text-red-300">{upload.reason}</p>}
        {/* Who sees it (docs/uploads.md, "Visibility"): changed here by whoever may edit it. */}
        {hasItem && upload.visibility && canEdit && (
          <div className="flex flex-wrap items-center gap-2 text-xs text-gray-300">
            <label htmlFor={visibilityId}>
              Who can see it<span className="sr-only"> ({details.title})</span>
            </label>
            <select
              id={visibilityId}
              value={changeVisibility.variables ?? upload.visibility}
              aria-disabled={changeVisibility.isPending}
              onChange={(event) => {
                if (!changeVisibility.isPending) {
                  changeVisibility.mutate(event.target.value as ItemVisibility);
                }
              }}
              className="rounded-lg border border-white/15 bg-gray-950 px-2 py-1 text-xs text-white focus-visible:outline-2 focus-visible:outline-violet-400"
            >
              {itemVisibilitySchema.options.map((option) => (
                <option key={option} value={option}>
                  {itemVisibilityLabels[option]}
                </option>
              ))}
            </select>
          </div>
        )}
        {hasItem && upload.visibility && !canEdit && !isSomeoneElses && (
          <p className="text-xs text-gray-300">{itemVisibilityLabels[upload.visibility]}</p>
        )}
        {isSomeoneElses && (
          <p className="text-sm text-gray-300">
            This file was already in Sticky as someone else’s item: it is theirs to edit or delete.
          </p>
        )}
      </div>
      {hasItem && (canEdit || upload.state === 'ready') && (
        <div className="flex flex-wrap gap-2">
          {canEdit && (
            <button
              type="button"
              className={buttonStyles.smallSecondary}
              onClick={() => setIsEditing(true)}
            >
              <Pencil className="size-3.5" aria-hidden="true" />
              Edit<span className="sr-only"> {details.title}</span>
            </button>
          )}
          {canShare && (
            <button
              type="button"
              className={buttonStyles.smallSecondary}
              onClick={() => void onCopy()}
            >
              <Link2 className="size-3.5" aria-hidden="true" />
              Copy link<span className="sr-only"> of {details.title}</span>
            </button>
          )}
          {scope === 'everyone' && (
            <button
              type="button"
              className={buttonStyles.smallSecondary}
              aria-disabled={toggleHidden.isPending}
              onClick={() => !toggleHidden.isPending && toggleHidden.mutate()}
            >
              {upload.state === 'hidden' ? (
                <Eye className="size-3.5" aria-hidden="true" />
              ) : (
                <EyeOff className="size-3.5" aria-hidden="true" />
              )}
              {upload.state === 'hidden' ? 'Unhide' : 'Hide'}
              <span className="sr-only"> {details.title}</span>
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              className={buttonStyles.smallSecondary}
              onClick={() => setIsDeleting(true)}
            >
              <Trash2 className="size-3.5" aria-hidden="true" />
              Delete<span className="sr-only"> {details.title}</span>
            </button>
          )}
          {canEdit && (
            <EditItemDialog
              itemId={itemId!}
              details={details}
              open={isEditing}
              onOpenChange={setIsEditing}
            />
          )}
          {canDelete && (
            <DeleteItemDialog
              itemId={itemId!}
              title={details.title}
              open={isDeleting}
              onOpenChange={setIsDeleting}
            />
          )}
        </div>
      )}
    </li>
  );
}

interface UploadsTableProps {
  scope: UploadsScope;
  label: string;
  /** What an empty list says, with what to do about it. */
  emptyText: ReactNode;
}

/** Uploads newest first with their state, filtered by state, a page at a time. */
export function UploadsTable({ scope, label, emptyText }: UploadsTableProps) {
  const [state, setState] = useState<UploadState | undefined>(undefined);
  const query = useInfiniteQuery(uploadsQueryOptions(scope, state));
  const uploads = query.data?.pages.flatMap((page) => page.uploads) ?? [];
  return (
    <div className="flex flex-col gap-4">
      <StateFilter label="Show uploads" options={stateFilters} value={state} onChange={setState} />
      {query.isPending ? (
        <LoadingIndicator label="Loading uploads…" />
      ) : query.error ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : uploads.length === 0 ? (
        <div className="flex flex-col items-center gap-3 py-8 text-center text-gray-300">
          {emptyText}
        </div>
      ) : (
        <ul aria-label={label} className="flex flex-col gap-3">
          {uploads.map((upload) => (
            <UploadRow key={upload.id} upload={upload} scope={scope} />
          ))}
        </ul>
      )}
      <NextPageButton query={query} label="Load more" />
    </div>
  );
}

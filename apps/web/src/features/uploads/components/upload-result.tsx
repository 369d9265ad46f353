import type { ItemDetails } from '@sticky/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { useAuth } from '@/features/auth';
import { isApiClientError } from '@/lib/api-client.ts';
import { ownedItemQueryOptions } from '../api/owned-item.ts';
import { getItemPagePath } from '../item-links.ts';
import { EditItemDialog } from './edit-item-dialog.tsx';

interface UploadResultProps {
  itemId: string;
  /** The receipt said the same bytes were already an item (docs/uploads.md, "Receiving"). */
  isDuplicate: boolean;
  /** What the row sent: shown until the item itself is known. */
  sentTitle: string;
  sentType: ItemDetails['type'];
}

const linkClass = 'text-violet-200 underline hover:text-white';

/**
 * The end of an upload row: "Ready" with a link to its item, or "Already in Sticky" when the
 * file was an item before (maybe someone else's, maybe hidden). The item is asked for
 * (`GET /api/items/:id`) so the link carries its real title and Edit is offered only when the
 * person may edit it: a duplicate's item keeps its owner, and its details are not the row's.
 */
export function UploadResult({ itemId, isDuplicate, sentTitle, sentType }: UploadResultProps) {
  const { user } = useAuth();
  const [isEditing, setIsEditing] = useState(false);
  const item = useQuery({ ...ownedItemQueryOptions(itemId), retry: false });

  if (item.isPending) {
    return isDuplicate ? (
      <p className="text-sm font-semibold text-sky-200">Already in Sticky</p>
    ) : (
      <p className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-semibold text-emerald-200">Ready</span>
        <Link to={getItemPagePath(itemId, sentType)} className={linkClass}>
          Open {sentTitle}
        </Link>
      </p>
    );
  }

  if (item.error) {
    // A hidden item exists only for its owner and admins (404 for anyone else).
    const isGone = isApiClientError(item.error) && item.error.status === 404;
    return (
      <div className="flex flex-col gap-1 text-sm">
        <span className="font-semibold text-sky-200">
          {isDuplicate ? 'Already in Sticky' : 'Ready'}
        </span>
        <p className="text-gray-300">
          {isGone
            ? isDuplicate
              ? 'The same file is already an item, but it is hidden, so it cannot be shown. Nothing new was made.'
              : 'Its item is no longer shown: it was hidden or deleted.'
            : `Could not load its item: ${item.error.message}`}
        </p>
      </div>
    );
  }

  const { details } = item.data;
  // Someone else's item (or one Sticky imported): the file matched it, even when the receipt
  // did not say so (two people sending the same file at once become one item).
  const isMine = item.data.owner !== null && item.data.owner.id === user?.id;
  const isAlreadyThere = isDuplicate || !isMine;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <p className="flex flex-wrap items-center gap-3">
        <span
          className={
            isAlreadyThere ? 'font-semibold text-sky-200' : 'font-semibold text-emerald-200'
          }
        >
          {isAlreadyThere ? 'Already in Sticky' : 'Ready'}
        </span>
        {item.data.isHidden ? (
          <span className="text-gray-300">{details.title} (hidden by an admin)</span>
        ) : (
          <Link to={getItemPagePath(itemId, details.type)} className={linkClass}>
            Open {details.title}
          </Link>
        )}
        {item.data.canEdit && (
          <button
            type="button"
            className={`${buttonStyles.secondary} px-3 py-1 text-xs`}
            onClick={() => setIsEditing(true)}
          >
            Edit details<span className="sr-only"> of {details.title}</span>
          </button>
        )}
      </p>
      {isAlreadyThere && (
        <p className="text-gray-300">
          {isMine
            ? 'You uploaded this file before: nothing new was made.'
            : 'The same file was already an item: it keeps its own title, tags and uploader, and nothing new was made.'}
        </p>
      )}
      {item.data.canEdit && (
        <EditItemDialog
          itemId={itemId}
          details={details}
          open={isEditing}
          onOpenChange={setIsEditing}
        />
      )}
    </div>
  );
}

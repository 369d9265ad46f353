import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '@/lib/notify.ts';
import { ownedItemQueryOptions, refreshAfterItemChange, updateItem } from '../api/owned-item.ts';
import { DeleteItemDialog } from './delete-item-dialog.tsx';
import { EditItemDialog } from './edit-item-dialog.tsx';

const actionClass =
  'inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-4 py-2 ' +
  'text-sm font-semibold text-gray-100 hover:bg-white/10 aria-disabled:cursor-progress';

/**
 * Edit and Delete on an item page, for its owner and admins (Hide too, for admins); nothing for
 * anyone else, nor for GIPHY's items.
 */
export function ItemManageActions({ itemId }: { itemId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data: item } = useQuery({ ...ownedItemQueryOptions(itemId), retry: false });
  const [isEditing, setIsEditing] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const hide = useMutation({
    mutationFn: () => updateItem(itemId, { isHidden: !item?.isHidden }),
    onSuccess: async (updated) => {
      await refreshAfterItemChange(queryClient, itemId);
      void notify('success', updated.isHidden ? 'Item hidden' : 'Item visible again');
    },
    onError: (error) => void notify('error', error.message),
  });
  if (!item || !(item.canEdit || item.canDelete || item.canHide)) return null;
  return (
    <div className="flex flex-col gap-2" aria-label="Manage this item" role="group">
      {item.canEdit && (
        <button type="button" className={actionClass} onClick={() => setIsEditing(true)}>
          <Pencil className="size-4" aria-hidden="true" />
          Edit
        </button>
      )}
      {item.canHide && (
        <button
          type="button"
          className={actionClass}
          aria-disabled={hide.isPending}
          onClick={() => !hide.isPending && hide.mutate()}
        >
          {item.isHidden ? (
            <Eye className="size-4" aria-hidden="true" />
          ) : (
            <EyeOff className="size-4" aria-hidden="true" />
          )}
          {item.isHidden ? 'Unhide' : 'Hide'}
        </button>
      )}
      {item.canDelete && (
        <button type="button" className={actionClass} onClick={() => setIsDeleting(true)}>
          <Trash2 className="size-4" aria-hidden="true" />
          Delete
        </button>
      )}
      <EditItemDialog
        itemId={itemId}
        details={item.details}
        open={isEditing}
        onOpenChange={setIsEditing}
      />
      <DeleteItemDialog
        itemId={itemId}
        title={item.details.title}
        open={isDeleting}
        onOpenChange={setIsDeleting}
        onDeleted={() => void navigate('/uploads')}
      />
    </div>
  );
}

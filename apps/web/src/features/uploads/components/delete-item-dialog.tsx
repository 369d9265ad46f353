import { useMutation, useQueryClient } from '@tanstack/react-query';
import { buttonStyles } from '@/components/button-styles.ts';
import { notify } from '@/lib/notify.ts';
import { deleteItem, refreshAfterItemChange } from '../api/owned-item.ts';
import { Modal } from '@/components/modal.tsx';

interface DeleteItemDialogProps {
  itemId: string;
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}

/** Asks before deleting: a deleted item and its files are gone for everyone. */
export function DeleteItemDialog({
  itemId,
  title,
  open,
  onOpenChange,
  onDeleted,
}: DeleteItemDialogProps) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteItem(itemId),
    onSuccess: async () => {
      await refreshAfterItemChange(queryClient, itemId);
      onOpenChange(false);
      void notify('success', 'Item deleted');
      onDeleted?.();
    },
  });
  return (
    <Modal
      title="Delete this item?"
      description={`“${title}” and its files will be gone for everyone. This cannot be undone.`}
      open={open}
      onOpenChange={(next) => {
        remove.reset();
        onOpenChange(next);
      }}
    >
      {remove.error && (
        <p role="alert" className="mb-3 text-sm text-red-300">
          {remove.error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => onOpenChange(false)}
        >
          Cancel
        </button>
        <button
          type="button"
          className={buttonStyles.danger}
          aria-disabled={remove.isPending}
          onClick={() => !remove.isPending && remove.mutate()}
        >
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </button>
      </div>
    </Modal>
  );
}

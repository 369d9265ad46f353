import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { notify } from '@/lib/notify.ts';
import { deleteItem, refreshAfterItemChange } from '../api/owned-item.ts';

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
    <ConfirmDialog
      title="Delete this item?"
      description={`“${title}” and its files will be gone for everyone. This cannot be undone.`}
      open={open}
      onOpenChange={(next) => {
        remove.reset();
        onOpenChange(next);
      }}
      error={remove.error}
      isPending={remove.isPending}
      label="Delete"
      pendingLabel="Deleting…"
      onConfirm={() => remove.mutate()}
    />
  );
}

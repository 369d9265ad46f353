import { DialogActions } from '@/components/dialog-actions.tsx';
import type { DialogActionsProps } from '@/components/dialog-actions.tsx';
import { Modal } from '@/components/modal.tsx';

interface ConfirmDialogProps extends Pick<
  DialogActionsProps,
  'error' | 'isPending' | 'label' | 'pendingLabel'
> {
  title: string;
  description?: string;
  open: boolean;
  /** Closing by any way (Cancel, Escape, the close button) passes false. */
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
}

/**
 * Asks before a step that cannot be undone (delete, revoke): what it does, Cancel, and the
 * red button that does it (docs/web.md, "Upload").
 */
export function ConfirmDialog({
  title,
  description,
  open,
  onOpenChange,
  ...actions
}: ConfirmDialogProps) {
  return (
    <Modal title={title} description={description} open={open} onOpenChange={onOpenChange}>
      <div className="flex flex-col gap-3">
        <DialogActions {...actions} tone="danger" onCancel={() => onOpenChange(false)} />
      </div>
    </Modal>
  );
}

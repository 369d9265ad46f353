import { buttonStyles } from '@/components/button-styles.ts';

export interface DialogActionsProps {
  /** The last attempt's failure, shown as an alert above the buttons. */
  error: Error | null;
  isPending: boolean;
  /** The main button's words, and its words while the action runs. */
  label: string;
  pendingLabel?: string;
  tone?: 'primary' | 'danger';
  onCancel: () => void;
  /** Without it the main button submits the form around it. */
  onConfirm?: () => void;
}

/**
 * The foot of a dialog that does one thing: its failure, Cancel, and the button that does it,
 * which stays focusable while the action runs (aria-disabled) so focus is not lost.
 */
export function DialogActions({
  error,
  isPending,
  label,
  pendingLabel = label,
  tone = 'primary',
  onCancel,
  onConfirm,
}: DialogActionsProps) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-red-300">
          {error.message}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonStyles.secondary} onClick={onCancel}>
          Cancel
        </button>
        <button
          type={onConfirm ? 'button' : 'submit'}
          className={buttonStyles[tone]}
          aria-disabled={isPending || undefined}
          onClick={onConfirm && (() => !isPending && onConfirm())}
        >
          {isPending ? pendingLabel : label}
        </button>
      </div>
    </>
  );
}

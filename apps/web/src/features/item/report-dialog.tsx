import { reportNoteMaxLength, reportReasonLabels, reportReasonSchema } from '@sticky/contracts';
import type { ReportReason } from '@sticky/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { DialogActions } from '@/components/dialog-actions.tsx';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/lib/notify.ts';
import { reportItem } from './api/report-item.ts';

interface ReportDialogProps {
  itemId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Report an item to the admins (docs/security.md, "Moderation"): one reason from a short list
 * and an optional note. Loaded only when opened: most visitors never report anything.
 */
export function ReportDialog({ itemId, open, onOpenChange }: ReportDialogProps) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [isReasonMissing, setIsReasonMissing] = useState(false);
  const send = useMutation({
    mutationFn: (chosen: ReportReason) => reportItem(itemId, { reason: chosen, note }),
    onSuccess: () => {
      onOpenChange(false);
      setReason(null);
      setNote('');
      void notify('success', 'Report sent. Thank you: an admin will look at it.');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    if (!reason) {
      setIsReasonMissing(true);
      return;
    }
    send.mutate(reason);
  };

  return (
    <Modal
      title="Report this item"
      description="Tell the admins what is wrong with it. They see who reported it."
      open={open}
      onOpenChange={(next) => {
        send.reset();
        setIsReasonMissing(false);
        onOpenChange(next);
      }}
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={isReasonMissing ? `${id}-reason-error` : undefined}
        >
          <legend className="mb-1 text-sm font-semibold text-white">Reason</legend>
          {reportReasonSchema.options.map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm text-gray-100">
              <input
                type="radio"
                name={`${id}-reason`}
                value={option}
                checked={reason === option}
                onChange={() => {
                  setReason(option);
                  setIsReasonMissing(false);
                }}
                className="size-4 accent-violet-500"
              />
              {reportReasonLabels[option]}
            </label>
          ))}
          {isReasonMissing && (
            <p id={`${id}-reason-error`} role="alert" className="text-sm text-red-300">
              Choose a reason.
            </p>
          )}
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-note`} className="text-sm font-semibold text-white">
            Note (optional)
          </label>
          <textarea
            id={`${id}-note`}
            value={note}
            maxLength={reportNoteMaxLength}
            rows={3}
            onChange={(event) => setNote(event.target.value)}
            aria-describedby={`${id}-note-hint`}
            className="rounded-lg border border-white/15 bg-gray-950 px-3 py-2 text-sm text-white"
          />
          <p id={`${id}-note-hint`} className="text-xs text-gray-400">
            {note.length} of {reportNoteMaxLength} characters
          </p>
        </div>
        <DialogActions
          error={send.error}
          isPending={send.isPending}
          label="Send report"
          pendingLabel="Sending…"
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </Modal>
  );
}

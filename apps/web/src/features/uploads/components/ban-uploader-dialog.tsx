import { uploadBanReasonMaxLength } from '@sticky/contracts';
import type { Uploader } from '@sticky/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DialogActions } from '@/components/dialog-actions.tsx';
import { Modal } from '@/components/modal.tsx';
import { notify } from '@/lib/notify.ts';
import { refreshAfterAdminAction } from '../api/admin-audit.ts';
import { banUploader, uploadBansQueryKey } from '../api/upload-bans.ts';

interface BanUploaderDialogProps {
  person: Uploader;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Stops a person's uploads; the reason is what they see on /upload. */
export function BanUploaderDialog({ person, open, onOpenChange }: BanUploaderDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const ban = useMutation({
    mutationFn: () => banUploader(person.id, reason),
    onSuccess: async () => {
      await refreshAfterAdminAction(queryClient, uploadBansQueryKey);
      onOpenChange(false);
      setReason('');
      void notify('success', `${person.name} can no longer upload`);
    },
  });
  return (
    <Modal
      title={`Stop ${person.name}'s uploads?`}
      description="They keep what they uploaded; they see your reason on the upload page."
      open={open}
      onOpenChange={(next) => {
        ban.reset();
        onOpenChange(next);
      }}
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ban.isPending) ban.mutate();
        }}
      >
        <label htmlFor={`${id}-reason`} className="text-sm font-semibold text-white">
          Reason they will see
        </label>
        <textarea
          id={`${id}-reason`}
          value={reason}
          required
          maxLength={uploadBanReasonMaxLength}
          rows={3}
          onChange={(event) => setReason(event.target.value)}
          className="rounded-lg border border-white/15 bg-gray-950 px-3 py-2 text-sm text-white"
        />
        <DialogActions
          error={ban.error}
          isPending={ban.isPending}
          label="Stop uploads"
          tone="danger"
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </Modal>
  );
}

import type { ItemDetails } from '@sticky/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { DialogActions } from '@/components/dialog-actions.tsx';
import { notify } from '@/lib/notify.ts';
import { refreshAfterItemChange, updateItem } from '../api/owned-item.ts';
import type { UploadFieldValues } from '../api/send-upload.ts';
import { fieldClass, ItemFields, labelClass } from './item-fields.tsx';
import { Modal } from '@/components/modal.tsx';

function toValues(details: ItemDetails): UploadFieldValues {
  return {
    title: details.title,
    tags: details.tags,
    type: details.type === 'sticker' ? 'sticker' : 'gif',
    category: details.category ?? '',
    rating: details.rating,
    source: details.sourceUrl,
  };
}

interface EditItemDialogProps {
  itemId: string;
  details: ItemDetails;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Edits an item's details (its owner or an admin); every list shows the change at once. */
export function EditItemDialog({ itemId, details, open, onOpenChange }: EditItemDialogProps) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => toValues(details));
  // The words inside the image, as Sticky read them (docs/catalog.md, "Captions"): searched,
  // and read out after the title by screen readers.
  const [caption, setCaption] = useState(details.caption);
  const captionId = useId();
  const save = useMutation({
    mutationFn: () =>
      updateItem(itemId, {
        title: values.title,
        tags: values.tags,
        ...(details.type === 'text' ? {} : { type: values.type }),
        category: values.category.trim() || null,
        rating: values.rating,
        sourceUrl: values.source.trim(),
        caption: caption.trim(),
      }),
    onSuccess: async () => {
      await refreshAfterItemChange(queryClient, itemId);
      onOpenChange(false);
      void notify('success', 'Changes saved');
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal
      title="Edit item"
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setValues(toValues(details));
          setCaption(details.caption);
        }
        save.reset();
        onOpenChange(next);
      }}
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <ItemFields
          values={values}
          onChange={setValues}
          isDisabled={save.isPending}
          isTypeFixed={details.type === 'text'}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={captionId} className={labelClass}>
            Text in the image
          </label>
          <textarea
            id={captionId}
            value={caption}
            rows={2}
            maxLength={500}
            disabled={save.isPending}
            onChange={(event) => setCaption(event.target.value)}
            className={fieldClass}
          />
        </div>
        <DialogActions
          error={save.error}
          isPending={save.isPending}
          label="Save"
          pendingLabel="Saving…"
          onCancel={() => onOpenChange(false)}
        />
      </form>
    </Modal>
  );
}

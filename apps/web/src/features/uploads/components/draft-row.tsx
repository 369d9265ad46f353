import { formatBytes } from '@sticky/contracts';
import { Copy, X } from 'lucide-react';
import { useId } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';
import { usePrefersReducedMotion } from '@/features/content';
import type { UploadFieldValues } from '../api/send-upload.ts';
import type { Draft } from '../use-upload-drafts.ts';
import { ItemFields } from './item-fields.tsx';
import { UploadResult } from './upload-result.tsx';

/** A file to upload: its preview, its fields, then its progress and what became of it. */
export function DraftRow({
  draft,
  canApplyToAll,
  onChange,
  onApplyToAll,
  onRemove,
}: {
  draft: Draft;
  canApplyToAll: boolean;
  onChange: (values: UploadFieldValues, field: keyof UploadFieldValues) => void;
  onApplyToAll: () => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  const typeErrorId = useId();
  const needsType = draft.isStill && !draft.isTypeChosen;
  const isEditable = draft.status === 'waiting';
  // Under reduced motion the first frame stands in for the animation (nothing until it is read).
  const isReducedMotion = usePrefersReducedMotion();
  const previewSrc = isReducedMotion ? draft.stillUrl : draft.previewUrl;
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-white/10 bg-white/5 p-4 md:flex-row"
    >
      <div className="flex w-full shrink-0 flex-col gap-2 md:w-48">
        <div className="flex aspect-square items-center justify-center overflow-hidden rounded-xl bg-gray-950">
          {previewSrc ? (
            <img
              src={previewSrc}
              alt={`Preview of ${draft.file.name}`}
              className="max-h-full max-w-full object-contain"
            />
          ) : (
            <span className="text-xs text-gray-400">No preview</span>
          )}
        </div>
        <h2 id={headingId} className="truncate text-sm font-semibold text-white">
          {draft.file.name}
        </h2>
        <p className="text-xs text-gray-400">{formatBytes(draft.file.size)}</p>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div aria-live="polite" className="flex flex-col gap-1">
          {draft.status === 'sending' && (
            <>
              <progress
                value={draft.sentBytes}
                max={draft.totalBytes || draft.file.size}
                aria-label={`Sending ${draft.file.name}`}
                className="h-2 w-full overflow-hidden rounded-full accent-violet-500"
              />
              <p className="text-xs text-gray-300">
                Sending {formatBytes(draft.sentBytes)} of{' '}
                {formatBytes(draft.totalBytes || draft.file.size)}
              </p>
            </>
          )}
          {draft.status === 'processing' && (
            <p className="text-sm font-semibold text-amber-200">Processing</p>
          )}
          {draft.status === 'ready' && draft.itemId && (
            <UploadResult
              itemId={draft.itemId}
              isDuplicate={draft.isDuplicate}
              sentTitle={draft.values.title}
              sentType={draft.values.type}
            />
          )}
        </div>
        {/* Once an item, its details are the item's: edited there, not in these fields. */}
        {draft.status !== 'ready' && (
          <ItemFields
            values={draft.values}
            onChange={onChange}
            isDisabled={!isEditable}
            isTypeUnchosen={needsType}
            typeErrorId={needsType && draft.isTypeMissing ? typeErrorId : undefined}
          />
        )}
        {needsType && isEditable && (
          <p
            id={typeErrorId}
            role={draft.isTypeMissing ? 'alert' : undefined}
            className={`text-sm ${draft.isTypeMissing ? 'text-red-300' : 'text-gray-300'}`}
          >
            {draft.file.name} is a still image: choose whether it is a GIF or a Sticker.
          </p>
        )}
        {isEditable && (
          <div className="flex flex-wrap gap-2">
            {canApplyToAll && (
              <button type="button" className={buttonStyles.smallSecondary} onClick={onApplyToAll}>
                <Copy className="size-3.5" aria-hidden="true" />
                Apply tags, category and rating to all
              </button>
            )}
            <button type="button" className={buttonStyles.smallGhost} onClick={onRemove}>
              <X className="size-3.5" aria-hidden="true" />
              Remove<span className="sr-only"> {draft.file.name}</span>
            </button>
          </div>
        )}
      </div>
    </li>
  );
}

import { RotateCcw, X } from 'lucide-react';
import { useId } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';

/**
 * A refused file takes one line: its name, the reason, Retry when sending again can help (the
 * network or the server failed, not the file) and Remove (docs/web.md, "Upload").
 */
export function FailedUploadRow({
  fileName,
  reason,
  onRetry,
  onRemove,
}: {
  fileName: string;
  reason: string | null;
  /** Absent when the file itself was refused: sending it again would be refused again. */
  onRetry?: () => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-2xl border border-red-400/30 bg-red-500/5 px-4 py-2"
    >
      <h2 id={headingId} className="max-w-full truncate text-sm font-semibold text-white">
        {fileName}
      </h2>
      <p role="alert" className="min-w-0 flex-1 text-sm text-red-300">
        {reason}
      </p>
      <div className="flex gap-1">
        {onRetry && (
          <button type="button" className={buttonStyles.smallGhost} onClick={onRetry}>
            <RotateCcw className="size-3.5" aria-hidden="true" />
            Retry<span className="sr-only"> {fileName}</span>
          </button>
        )}
        <button type="button" className={buttonStyles.smallGhost} onClick={onRemove}>
          <X className="size-3.5" aria-hidden="true" />
          Remove<span className="sr-only"> {fileName}</span>
        </button>
      </div>
    </li>
  );
}

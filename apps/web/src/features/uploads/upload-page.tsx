import { useQuery } from '@tanstack/react-query';
import { Upload as UploadIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useDropzone } from 'react-dropzone';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { VisibilityChoice } from '@/components/visibility-choice.tsx';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { uploadLimitsQueryOptions } from './api/upload-limits.ts';
import { DraftRow } from './components/draft-row.tsx';
import { FailedUploadRow } from './components/failed-upload-row.tsx';
import { FilePicker } from './components/file-picker.tsx';
import { UploadLimitsLine } from './components/upload-limits-line.tsx';
import { isFinished, useUploadDrafts } from './use-upload-drafts.ts';

/**
 * Upload (docs/web.md, "Upload"): drop files anywhere on the page, paste them, or choose them;
 * each gets a row to describe it, then its progress in bytes, Processing, and Ready with a link
 * to its item, or the reason it was refused. One bad file never costs the others.
 */
export function UploadPage() {
  useDocumentTitle('Upload');
  const limits = useQuery(uploadLimitsQueryOptions());
  const uploads = useUploadDrafts(limits.data);
  const { drafts, waitingCount, isSending, addFiles } = uploads;

  // Pasted images (a screenshot, a copied GIF) join the list, wherever focus is.
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      addFiles(files);
    };
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, [addFiles]);

  const { getRootProps, isDragActive } = useDropzone({
    onDrop: (files) => addFiles(files),
    noClick: true,
    noKeyboard: true,
  });

  if (limits.isPending) return <LoadingIndicator />;
  if (limits.error) {
    return <ErrorState message={limits.error.message} onRetry={() => void limits.refetch()} />;
  }
  if (!limits.data.canUpload) {
    return (
      <div className="flex flex-col gap-3 py-10 text-center">
        <h1 className="text-3xl font-extrabold">Upload</h1>
        {limits.data.banReason ? (
          <p role="alert" className="text-red-300">
            {limits.data.banReason}
          </p>
        ) : (
          <p className="text-gray-300">Uploads are not open to you on this server.</p>
        )}
      </div>
    );
  }

  return (
    <div {...getRootProps({ className: 'relative flex min-h-[60vh] flex-col gap-5 outline-none' })}>
      {isDragActive && (
        <div className="pointer-events-none fixed inset-0 z-30 flex items-center justify-center border-4 border-dashed border-violet-400 bg-gray-950/80">
          <p className="text-2xl font-bold text-white">Drop files to upload</p>
        </div>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-extrabold">Upload</h1>
          <UploadLimitsLine limits={limits.data} />
        </div>
        <Link to="/uploads" className="text-sm text-violet-200 underline hover:text-white">
          My uploads
        </Link>
      </div>
      <FilePicker onFiles={addFiles} />
      {drafts.length > 0 && (
        <>
          <ul aria-label="Files to upload" className="flex flex-col gap-4">
            {drafts.map((draft) =>
              draft.status === 'failed' ? (
                <FailedUploadRow
                  key={draft.key}
                  fileName={draft.file.name}
                  reason={draft.reason}
                  onRetry={draft.canRetry ? () => void uploads.retry(draft) : undefined}
                  onRemove={() => uploads.removeDraft(draft.key)}
                />
              ) : (
                <DraftRow
                  key={draft.key}
                  draft={draft}
                  canApplyToAll={waitingCount > 1}
                  onChange={(values, field) => uploads.changeValues(draft.key, values, field)}
                  onApplyToAll={() => uploads.applyToAll(draft)}
                  onRemove={() => uploads.removeDraft(draft.key)}
                />
              ),
            )}
          </ul>
          {drafts.some(isFinished) && (
            <button
              type="button"
              className={`${buttonStyles.smallGhost} self-start`}
              onClick={uploads.clearFinished}
            >
              Clear finished
            </button>
          )}
          {waitingCount > 0 && (
            <div className="rounded-2xl border border-white/10 bg-white/5 p-4">
              <VisibilityChoice
                legend="Who can see these files"
                value={uploads.visibility}
                onChange={uploads.chooseVisibility}
                isDisabled={isSending}
              />
            </div>
          )}
          <div className="sticky bottom-4 flex justify-end">
            <button
              type="button"
              className={`${buttonStyles.primary} shadow-xl`}
              aria-disabled={waitingCount === 0 || isSending}
              onClick={() => {
                if (waitingCount > 0 && !isSending) void uploads.sendAll();
              }}
            >
              <UploadIcon className="size-4" aria-hidden="true" />
              {waitingCount === 0
                ? 'All files sent'
                : waitingCount === 1
                  ? 'Upload 1 file'
                  : `Upload ${waitingCount} files`}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

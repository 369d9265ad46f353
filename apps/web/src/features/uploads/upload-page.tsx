import { formatBytes, titleFromFileName, uploadMediaTypes } from '@sticky/contracts';
import type { ItemVisibility, UploadLimitsResponse } from '@sticky/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, ImagePlus, Upload as UploadIcon, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { VisibilityChoice } from '@/components/visibility-choice.tsx';
import { ErrorState, LoadingIndicator, usePrefersReducedMotion } from '@/features/content';
import { ApiClientError } from '@/lib/api-client.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { recentUploadsQueryOptions } from './api/recent-uploads.ts';
import { sendUpload } from './api/send-upload.ts';
import type { UploadFieldValues } from './api/send-upload.ts';
import { uploadLimitsQueryOptions } from './api/upload-limits.ts';
import { uploadsQueryKey } from './api/uploads-list.ts';
import { FailedUploadRow } from './components/failed-upload-row.tsx';
import { ItemFields } from './components/item-fields.tsx';
import { UploadResult } from './components/upload-result.tsx';
import { readIsStill } from './still-image.ts';
import { readFirstFrame } from './transparency.ts';
import type { FirstFrame } from './transparency.ts';

type DraftStatus = 'waiting' | 'sending' | 'processing' | 'ready' | 'failed';

interface Draft {
  key: string;
  file: File;
  previewUrl: string;
  /** The first frame, once read: what is shown under reduced motion. */
  stillUrl: string | null;
  values: UploadFieldValues;
  status: DraftStatus;
  sentBytes: number;
  totalBytes: number;
  reason: string | null;
  /** A failure sending again can mend: the network or the server, not the file. */
  canRetry: boolean;
  uploadId: string | null;
  itemId: string | null;
  /** The file was already an item: the receipt answered that item, no copy was made. */
  isDuplicate: boolean;
  /**
   * An opaque JPEG or still PNG: no type is proposed, the person picks GIF or Sticker (a
   * see-through one is proposed as a sticker, as any see-through file).
   */
  isStill: boolean;
  isTypeChosen: boolean;
  /** Upload was pressed while this still had no type. */
  isTypeMissing: boolean;
}

/** Files sent at once: the rest wait their turn, each with its own progress. */
const PARALLEL_SENDS = 2;

/** No answer, a timeout, too many requests or a server fault: the same file may go through. */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiClientError)) return false;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** Nothing is left to do for a row: it became an item or was refused. */
function isFinished(draft: Draft): boolean {
  return draft.status === 'ready' || draft.status === 'failed';
}

function DraftRow({
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
              <button
                type="button"
                className={`${buttonStyles.secondary} px-3 py-1.5 text-xs`}
                onClick={onApplyToAll}
              >
                <Copy className="size-3.5" aria-hidden="true" />
                Apply tags, category and rating to all
              </button>
            )}
            <button
              type="button"
              className={`${buttonStyles.ghost} px-3 py-1.5 text-xs`}
              onClick={onRemove}
            >
              <X className="size-3.5" aria-hidden="true" />
              Remove<span className="sr-only"> {draft.file.name}</span>
            </button>
          </div>
        )}
      </div>
    </li>
  );
}

function LimitsLine({ limits }: { limits: UploadLimitsResponse }) {
  return (
    <p className="text-sm text-gray-300">
      GIF, animated WebP, PNG or JPEG, up to {formatBytes(limits.maxFileBytes)} each. Today:{' '}
      {limits.itemsUsedToday} of {limits.itemsPerDay} files, {formatBytes(limits.bytesUsedToday)} of{' '}
      {formatBytes(limits.bytesPerDay)}, {limits.megapixelsUsedToday.toLocaleString('en-US')} of{' '}
      {limits.megapixelsPerDay.toLocaleString('en-US')} megapixels of decoding.
    </p>
  );
}

/**
 * Upload (docs/web.md, "Upload"): drop files anywhere on the page, paste them, or choose them;
 * each gets a row to describe it, then its progress in bytes, Processing, and Ready with a link
 * to its item, or the reason it was refused. One bad file never costs the others.
 */
export function UploadPage() {
  useDocumentTitle('Upload');
  const queryClient = useQueryClient();
  const limits = useQuery(uploadLimitsQueryOptions());
  const [drafts, setDrafts] = useState<Draft[]>([]);
  // Chosen once for the files sent together; the server's default until the person picks.
  const [chosenVisibility, setChosenVisibility] = useState<ItemVisibility | null>(null);
  const visibility = chosenVisibility ?? limits.data?.visibility ?? 'public';
  const visibilityRef = useRef(visibility);
  visibilityRef.current = visibility;
  const draftsRef = useRef(drafts);
  draftsRef.current = drafts;
  const inputId = useId();
  const nextKey = useRef(0);
  // Each row's decoding, so a file is sent only once it is known to be an image.
  const firstFrames = useRef(new Map<string, Promise<FirstFrame>>());
  // Each row's still check, so a still is sent only once the person gave it a type.
  const stills = useRef(new Map<string, Promise<boolean>>());

  const update = useCallback((key: string, change: Partial<Draft>) => {
    setDrafts((current) =>
      current.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)),
    );
  }, []);

  const addFiles = useCallback(
    (files: readonly File[]) => {
      const maxBytes = limits.data?.maxFileBytes;
      const added: Draft[] = files.map((file) => {
        nextKey.current += 1;
        const isTooBig = maxBytes !== undefined && file.size > maxBytes;
        return {
          key: `draft-${nextKey.current}`,
          file,
          previewUrl: URL.createObjectURL(file),
          stillUrl: null,
          values: {
            title: titleFromFileName(file.name),
            tags: [],
            type: 'gif',
            category: '',
            rating: 'g',
            source: '',
          },
          status: isTooBig ? 'failed' : 'waiting',
          sentBytes: 0,
          totalBytes: file.size,
          reason: isTooBig
            ? `${file.name} is over the limit of ${formatBytes(maxBytes)} per file: send a smaller file.`
            : null,
          canRetry: false,
          uploadId: null,
          itemId: null,
          isDuplicate: false,
          isStill: false,
          isTypeChosen: false,
          isTypeMissing: false,
        };
      });
      setDrafts((current) => [...current, ...added]);
      for (const draft of added) {
        const firstFrame = readFirstFrame(draft.file);
        firstFrames.current.set(draft.key, firstFrame);
        const isStill = Promise.all([readIsStill(draft.file), firstFrame]).then(
          ([isStillImage, { hasTransparency }]) => isStillImage && !hasTransparency,
        );
        stills.current.set(draft.key, isStill);
        void isStill.then((isOpaqueStill) => {
          if (isOpaqueStill) update(draft.key, { isStill: true });
        });
        void firstFrame.then(({ isImage, hasTransparency, stillUrl }) => {
          setDrafts((current) =>
            current.map((entry) => {
              if (entry.key !== draft.key) return entry;
              // A file no browser decodes (a text file named .gif) is refused here, unsent.
              if (!isImage && entry.status === 'waiting') {
                return { ...entry, status: 'failed', reason: `${entry.file.name} isn't an image` };
              }
              const isSticker = hasTransparency && entry.status === 'waiting';
              return {
                ...entry,
                stillUrl,
                values: isSticker ? { ...entry.values, type: 'sticker' } : entry.values,
              };
            }),
          );
        });
      }
    },
    [limits.data?.maxFileBytes, update],
  );

  // Object URLs live as long as their rows.
  useEffect(
    () => () => {
      for (const draft of draftsRef.current) {
        URL.revokeObjectURL(draft.previewUrl);
        if (draft.stillUrl) URL.revokeObjectURL(draft.stillUrl);
      }
    },
    [],
  );

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

  const sendOne = async (draft: Draft) => {
    update(draft.key, { status: 'sending', sentBytes: 0, reason: null, canRetry: false });
    try {
      const values = { ...draft.values, visibility: visibilityRef.current };
      const receipt = await sendUpload(draft.file, values, {
        onProgress: (sentBytes, totalBytes) => update(draft.key, { sentBytes, totalBytes }),
      });
      update(draft.key, {
        status: receipt.state === 'processing' ? 'processing' : 'ready',
        uploadId: receipt.uploadId,
        itemId: receipt.itemId,
        isDuplicate: receipt.isDuplicate,
      });
    } catch (error) {
      update(draft.key, {
        status: 'failed',
        reason: (error as Error).message,
        canRetry: isRetryable(error),
      });
    }
  };

  const sendAll = async () => {
    const queue = draftsRef.current.filter((draft) => draft.status === 'waiting');
    // Like a form's missing field: nothing goes while a still has no type.
    const isStill = await Promise.all(queue.map((draft) => stills.current.get(draft.key)));
    const untyped = queue.filter((draft, index) => {
      const current = draftsRef.current.find((entry) => entry.key === draft.key);
      return isStill[index] && current?.status === 'waiting' && !current.isTypeChosen;
    });
    if (untyped.length > 0) {
      for (const draft of untyped) update(draft.key, { isStill: true, isTypeMissing: true });
      return;
    }
    const workers = Array.from({ length: PARALLEL_SENDS }, async () => {
      for (let draft = queue.shift(); draft; draft = queue.shift()) {
        const firstFrame = await firstFrames.current.get(draft.key);
        if (firstFrame && !firstFrame.isImage) continue;
        // The row as it is now: edited since the button was pressed, or removed.
        const current = draftsRef.current.find((entry) => entry.key === draft!.key);
        if (current?.status === 'waiting') await sendOne(current);
      }
    });
    await Promise.all(workers);
    await queryClient.invalidateQueries({ queryKey: uploadsQueryKey });
  };

  const retryOne = async (draft: Draft) => {
    await sendOne(draft);
    await queryClient.invalidateQueries({ queryKey: uploadsQueryKey });
  };

  const removeDrafts = (isRemoved: (draft: Draft) => boolean) => {
    for (const draft of draftsRef.current.filter(isRemoved)) {
      URL.revokeObjectURL(draft.previewUrl);
      if (draft.stillUrl) URL.revokeObjectURL(draft.stillUrl);
      firstFrames.current.delete(draft.key);
      stills.current.delete(draft.key);
    }
    setDrafts((current) => current.filter((entry) => !isRemoved(entry)));
  };

  // Follow sent files until they are items (or refused).
  const processing = drafts.filter((draft) => draft.status === 'processing');
  const recent = useQuery(recentUploadsQueryOptions(processing.length > 0));
  useEffect(() => {
    if (!recent.data) return;
    const byId = new Map(recent.data.uploads.map((upload) => [upload.id, upload]));
    for (const draft of draftsRef.current) {
      const upload = draft.uploadId ? byId.get(draft.uploadId) : undefined;
      if (draft.status !== 'processing' || !upload || upload.state === 'processing') continue;
      update(
        draft.key,
        upload.state === 'failed'
          ? { status: 'failed', reason: upload.reason, canRetry: false }
          : {
              status: 'ready',
              itemId: upload.itemId,
              values: {
                ...draft.values,
                type: upload.details.type === 'sticker' ? 'sticker' : 'gif',
              },
            },
      );
    }
  }, [recent.data, update]);

  const waiting = drafts.filter((draft) => draft.status === 'waiting');
  const isSending = drafts.some((draft) => draft.status === 'sending');

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
          <LimitsLine limits={limits.data} />
        </div>
        <Link to="/uploads" className="text-sm text-violet-200 underline hover:text-white">
          My uploads
        </Link>
      </div>
      <div className="flex flex-col items-center gap-3 rounded-2xl border-2 border-dashed border-white/20 px-4 py-10 text-center">
        <ImagePlus className="size-10 text-violet-300" aria-hidden="true" />
        <p className="text-gray-200">Drop files anywhere on this page, paste them, or</p>
        <input
          id={inputId}
          type="file"
          multiple
          accept={uploadMediaTypes.join(',')}
          className="peer sr-only"
          onChange={(event) => {
            addFiles([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <label
          htmlFor={inputId}
          className={`${buttonStyles.primary} cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-violet-300`}
        >
          Choose files
        </label>
      </div>
      {drafts.length > 0 && (
        <>
          <ul aria-label="Files to upload" className="flex flex-col gap-4">
            {drafts.map((draft) =>
              draft.status === 'failed' ? (
                <FailedUploadRow
                  key={draft.key}
                  fileName={draft.file.name}
                  reason={draft.reason}
                  onRetry={draft.canRetry ? () => void retryOne(draft) : undefined}
                  onRemove={() => removeDrafts((entry) => entry.key === draft.key)}
                />
              ) : (
                <DraftRow
                  key={draft.key}
                  draft={draft}
                  canApplyToAll={waiting.length > 1}
                  onChange={(values, field) =>
                    update(
                      draft.key,
                      field === 'type'
                        ? { values, isTypeChosen: true, isTypeMissing: false }
                        : { values },
                    )
                  }
                  onApplyToAll={() =>
                    setDrafts((current) =>
                      current.map((entry) =>
                        entry.status === 'waiting'
                          ? {
                              ...entry,
                              values: {
                                ...entry.values,
                                tags: draft.values.tags,
                                category: draft.values.category,
                                rating: draft.values.rating,
                              },
                            }
                          : entry,
                      ),
                    )
                  }
                  onRemove={() => removeDrafts((entry) => entry.key === draft.key)}
                />
              ),
            )}
          </ul>
          {drafts.some(isFinished) && (
            <button
              type="button"
              className={`${buttonStyles.ghost} self-start px-3 py-1.5 text-xs`}
              onClick={() => removeDrafts(isFinished)}
            >
              Clear finished
            </button>
          )}
          {waiting.length > 0 && (
            <div className="rounded-2xl border border-white/10 bg-white/5 p-4">
              <VisibilityChoice
                legend="Who can see these files"
                value={visibility}
                onChange={setChosenVisibility}
                isDisabled={isSending}
              />
            </div>
          )}
          <div className="sticky bottom-4 flex justify-end">
            <button
              type="button"
              className={`${buttonStyles.primary} shadow-xl`}
              aria-disabled={waiting.length === 0 || isSending}
              onClick={() => {
                if (waiting.length > 0 && !isSending) void sendAll();
              }}
            >
              <UploadIcon className="size-4" aria-hidden="true" />
              {waiting.length === 0
                ? 'All files sent'
                : waiting.length === 1
                  ? 'Upload 1 file'
                  : `Upload ${waiting.length} files`}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

import { formatBytes, titleFromFileName } from '@sticky/contracts';
import type { ItemVisibility, UploadLimitsResponse } from '@sticky/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiClientError } from '@/lib/api-client.ts';
import { recentUploadsQueryOptions } from './api/recent-uploads.ts';
import { sendUpload } from './api/send-upload.ts';
import type { UploadFieldValues } from './api/send-upload.ts';
import { uploadsQueryKey } from './api/uploads-list.ts';
import { readIsStill } from './still-image.ts';
import { readFirstFrame } from './transparency.ts';
import type { FirstFrame } from './transparency.ts';

type DraftStatus = 'waiting' | 'sending' | 'processing' | 'ready' | 'failed';

export interface Draft {
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

/** What is read from a file as it is added, before it may be sent. */
interface FileChecks {
  /** Its decoding, so a file is sent only once it is known to be an image. */
  firstFrame: Promise<FirstFrame>;
  /** Its still check, so a still is sent only once the person gave it a type. */
  isOpaqueStill: Promise<boolean>;
}

/** Files sent at once: the rest wait their turn, each with its own progress. */
const PARALLEL_SENDS = 2;

/** No answer, a timeout, too many requests or a server fault: the same file may go through. */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiClientError)) return false;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** Nothing is left to do for a row: it became an item or was refused. */
export function isFinished(draft: Draft): boolean {
  return draft.status === 'ready' || draft.status === 'failed';
}

function revokeUrls(draft: Draft) {
  URL.revokeObjectURL(draft.previewUrl);
  if (draft.stillUrl) URL.revokeObjectURL(draft.stillUrl);
}

function createDraft(key: string, file: File, maxBytes: number | undefined): Draft {
  const isTooBig = maxBytes !== undefined && file.size > maxBytes;
  return {
    key,
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
}

/**
 * The upload page's rows (docs/web.md, "Upload"): each file added, checked, described, sent two
 * at a time and followed until it is an item or refused.
 */
export function useUploadDrafts(limits: UploadLimitsResponse | undefined) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Draft[]>([]);
  // Chosen once for the files sent together; the server's default until the person picks.
  const [chosenVisibility, setChosenVisibility] = useState<ItemVisibility | null>(null);
  const visibility = chosenVisibility ?? limits?.visibility ?? 'public';
  const visibilityRef = useRef(visibility);
  visibilityRef.current = visibility;
  const draftsRef = useRef(drafts);
  draftsRef.current = drafts;
  const nextKey = useRef(0);
  const checks = useRef(new Map<string, FileChecks>());

  const update = useCallback((key: string, change: Partial<Draft>) => {
    setDrafts((current) =>
      current.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)),
    );
  }, []);

  const addFiles = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file) => {
        nextKey.current += 1;
        return createDraft(`draft-${nextKey.current}`, file, limits?.maxFileBytes);
      });
      setDrafts((current) => [...current, ...added]);
      for (const draft of added) {
        const firstFrame = readFirstFrame(draft.file);
        const isOpaqueStill = Promise.all([readIsStill(draft.file), firstFrame]).then(
          ([isStillImage, { hasTransparency }]) => isStillImage && !hasTransparency,
        );
        checks.current.set(draft.key, { firstFrame, isOpaqueStill });
        void isOpaqueStill.then((isStill) => {
          if (isStill) update(draft.key, { isStill: true });
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
    [limits?.maxFileBytes, update],
  );

  // Object URLs live as long as their rows.
  useEffect(
    () => () => {
      for (const draft of draftsRef.current) revokeUrls(draft);
    },
    [],
  );

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
    const isStill = await Promise.all(
      queue.map((draft) => checks.current.get(draft.key)?.isOpaqueStill),
    );
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
        const firstFrame = await checks.current.get(draft.key)?.firstFrame;
        if (firstFrame && !firstFrame.isImage) continue;
        // The row as it is now: edited since the button was pressed, or removed.
        const current = draftsRef.current.find((entry) => entry.key === draft!.key);
        if (current?.status === 'waiting') await sendOne(current);
      }
    });
    await Promise.all(workers);
    await queryClient.invalidateQueries({ queryKey: uploadsQueryKey });
  };

  const retry = async (draft: Draft) => {
    await sendOne(draft);
    await queryClient.invalidateQueries({ queryKey: uploadsQueryKey });
  };

  const removeDrafts = (isRemoved: (draft: Draft) => boolean) => {
    for (const draft of draftsRef.current.filter(isRemoved)) {
      revokeUrls(draft);
      checks.current.delete(draft.key);
    }
    setDrafts((current) => current.filter((entry) => !isRemoved(entry)));
  };

  const changeValues = (key: string, values: UploadFieldValues, field: keyof UploadFieldValues) =>
    update(
      key,
      field === 'type' ? { values, isTypeChosen: true, isTypeMissing: false } : { values },
    );

  /** The tags, category and rating of `source` on every row still waiting. */
  const applyToAll = (source: Draft) =>
    setDrafts((current) =>
      current.map((entry) =>
        entry.status === 'waiting'
          ? {
              ...entry,
              values: {
                ...entry.values,
                tags: source.values.tags,
                category: source.values.category,
                rating: source.values.rating,
              },
            }
          : entry,
      ),
    );

  // Follow sent files until they are items (or refused).
  const isProcessing = drafts.some((draft) => draft.status === 'processing');
  const recent = useQuery(recentUploadsQueryOptions(isProcessing));
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

  return {
    drafts,
    waitingCount: drafts.filter((draft) => draft.status === 'waiting').length,
    isSending: drafts.some((draft) => draft.status === 'sending'),
    visibility,
    chooseVisibility: setChosenVisibility,
    addFiles,
    changeValues,
    applyToAll,
    sendAll,
    retry,
    removeDraft: (key: string) => removeDrafts((entry) => entry.key === key),
    clearFinished: () => removeDrafts(isFinished),
  };
}

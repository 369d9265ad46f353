import { createUploadsResponseSchema } from '@sticky/contracts';
import type { ItemRating, ItemVisibility, UploadItemType, UploadReceipt } from '@sticky/contracts';
import { ApiClientError } from '@/lib/api-client.ts';

export interface UploadFieldValues {
  title: string;
  tags: string[];
  type: UploadItemType;
  category: string;
  rating: ItemRating;
  source: string;
  /** Chosen for the whole batch on /upload; unset, the server's default applies. */
  visibility?: ItemVisibility;
}

export interface SendUploadOptions {
  /** Bytes of the request sent so far, of `total`. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

function toFormData(file: File, fields: UploadFieldValues): FormData {
  const form = new FormData();
  form.set('title', fields.title.trim());
  form.set('tags', fields.tags.join(','));
  form.set('type', fields.type);
  if (fields.category.trim()) form.set('category', fields.category.trim());
  form.set('rating', fields.rating);
  if (fields.source.trim()) form.set('source', fields.source.trim());
  if (fields.visibility) form.set('visibility', fields.visibility);
  form.append('file', file, file.name);
  return form;
}

function readError(xhr: XMLHttpRequest): ApiClientError {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { code?: string; message?: string } };
    if (body.error?.message) {
      return new ApiClientError(
        xhr.status,
        (body.error.code ?? 'http_error') as ApiClientError['code'],
        body.error.message,
      );
    }
  } catch {
    // Not our error body (a proxy's page): said below.
  }
  return new ApiClientError(xhr.status, 'http_error', `The upload failed (HTTP ${xhr.status}).`);
}

/**
 * `POST /api/uploads` with one file and its fields. Sent with XMLHttpRequest rather than the
 * JSON client: only XHR reports upload progress, which the upload page shows in bytes.
 * Resolves with the file's receipt (accepted, duplicate); rejects with the server's reason.
 */
export function sendUpload(
  file: File,
  fields: UploadFieldValues,
  options: SendUploadOptions = {},
): Promise<UploadReceipt> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/uploads');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => {
      if (xhr.status !== 202) {
        reject(readError(xhr));
        return;
      }
      try {
        const parsed = createUploadsResponseSchema.safeParse(JSON.parse(xhr.responseText));
        const receipt = parsed.success ? parsed.data.uploads[0] : undefined;
        if (!receipt) throw new Error('no receipt');
        if (receipt.state === 'failed') {
          reject(new ApiClientError(xhr.status, 'bad_request', receipt.reason ?? 'Refused.'));
        } else resolve(receipt);
      } catch {
        reject(
          new ApiClientError(
            xhr.status,
            'invalid_response',
            'The server sent an unreadable answer.',
          ),
        );
      }
    };
    xhr.onerror = () =>
      reject(
        new ApiClientError(0, 'network', 'Could not reach the server. Check your connection.'),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(toFormData(file, fields));
  });
}

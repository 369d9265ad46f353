import type { UploadReceipt } from '@sticky/contracts';
import { vi } from 'vitest';

/** One `POST /api/uploads` the upload page sent, waiting for the test to answer it. */
export interface PendingUpload {
  url: string;
  /** The request's form: its `file` and text fields. */
  form: FormData;
  /** Reports `sent` of `total` bytes as gone out. */
  progress: (sent: number, total: number) => void;
  /** Answers 202 with this one receipt. */
  accept: (receipt: Partial<UploadReceipt>) => void;
  /** Ends with no answer, as when the network drops. */
  fail: () => void;
}

/**
 * Stands in for XMLHttpRequest, which the upload page sends files with (for its progress in
 * bytes; docs/web.md, "Upload"): records each request and lets the test answer it.
 */
export function stubUploadRequests() {
  const pending: PendingUpload[] = [];
  class FakeUploadRequest {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    abort() {
      this.onabort?.();
    }
    send(form: FormData) {
      const file = form.get('file') as File;
      pending.push({
        url: this.url,
        form,
        progress: (loaded, total) =>
          this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent),
        accept: (receipt) => {
          this.status = 202;
          this.responseText = JSON.stringify({
            success: true,
            uploads: [
              {
                fileName: file.name,
                uploadId: null,
                itemId: null,
                state: 'processing',
                reason: null,
                isDuplicate: false,
                url: null,
                ...receipt,
              },
            ],
          });
          this.onload?.();
        },
        fail: () => this.onerror?.(),
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeUploadRequest);
  return { pending };
}

import type { Upload } from '@sticky/contracts';

/** One row of `GET /api/uploads` (or the admin list): a ready GIF unless `change` says more. */
export function makeUploadRow(id: string, change: Partial<Upload> & { title: string }): Upload {
  const { title, ...rest } = change;
  return {
    id,
    itemId: null,
    state: 'ready',
    reason: null,
    fileName: `${id}.gif`,
    bytes: 2048,
    createdAt: '2025-01-02T10:00:00.000Z',
    previewUrl: null,
    previewStillUrl: null,
    details: {
      title,
      tags: [],
      type: 'gif',
      category: null,
      rating: 'g',
      sourceUrl: '',
      caption: '',
    },
    visibility: 'public',
    uploader: null,
    ...rest,
  };
}

import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { Spinner } from '@/components/spinner.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { uploadLinkQueryOptions } from './api/upload-link.ts';

/**
 * `/u/{id}` while its upload is processing (the server redirects once it is ready): waits in
 * the app's look and opens the item as soon as it is made (docs/uploads.md, "Links").
 */
export function UploadLinkPage() {
  const { id = '' } = useParams();
  const { data, error } = useQuery(uploadLinkQueryOptions(id));
  useDocumentTitle(error ? 'Not found' : 'Processing');

  if (data?.state === 'ready') return <Navigate to={data.path} replace />;
  if (error) {
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center gap-3 py-16 text-center">
        <h1 className="text-2xl font-bold">This link leads nowhere</h1>
        <p className="text-gray-300">The upload was refused, hidden or deleted.</p>
      </section>
    );
  }
  return (
    <section
      aria-busy="true"
      className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center"
    >
      <Spinner />
      <h1 className="text-2xl font-bold">Almost ready</h1>
      <p role="status" className="text-gray-300">
        This GIF is being made ready. It opens here as soon as it is.
      </p>
    </section>
  );
}

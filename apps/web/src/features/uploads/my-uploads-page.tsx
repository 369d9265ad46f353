import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { UploadsTable } from './components/uploads-table.tsx';

/** My uploads (docs/web.md, "Upload"): every file I sent, with its state, to edit or delete. */
export function MyUploadsPage() {
  useDocumentTitle('My uploads');
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold">My uploads</h1>
        <Link to="/upload" className={buttonStyles.primary}>
          Upload
        </Link>
      </div>
      <UploadsTable
        scope="mine"
        label="My uploads"
        emptyText={
          <>
            <p>Nothing uploaded yet.</p>
            <p>Drop, paste or choose GIFs, stickers or images on the Upload page.</p>
            <Link to="/upload" className={buttonStyles.secondary}>
              Upload your first file
            </Link>
          </>
        }
      />
    </div>
  );
}

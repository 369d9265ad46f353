import { useAuth } from '@/features/auth';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { UploadsTable } from './components/uploads-table.tsx';

/**
 * Admin (docs/web.md, "Upload"): recent uploads across everyone, with who sent them; hide,
 * unhide, edit or delete any of them.
 */
export function AdminPage() {
  useDocumentTitle('Admin');
  const { user } = useAuth();
  if (!user?.isAdmin) {
    return (
      <div className="flex flex-col gap-3 py-10 text-center">
        <h1 className="text-3xl font-extrabold">Admin</h1>
        <p className="text-gray-300">Only admins can see this page.</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-3xl font-extrabold">Admin</h1>
      <p className="text-sm text-gray-300">Recent uploads by everyone, newest first.</p>
      <UploadsTable scope="everyone" label="Recent uploads" emptyText="Nobody has uploaded yet." />
    </div>
  );
}

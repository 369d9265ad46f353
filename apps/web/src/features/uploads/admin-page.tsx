import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { useAuth } from '@/features/auth';
import { clientConfigQueryOptions } from '@/lib/client-config-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { AuditList } from './components/audit-list.tsx';
import { CategoriesAdmin } from './components/categories-admin.tsx';
import { BlockedHashesList, UploadBansList } from './components/moderation-lists.tsx';
import { ReportsList } from './components/reports-list.tsx';
import { UploadsTable } from './components/uploads-table.tsx';

/** On this machine with the local sign-in, how a person makes themselves admin (README). */
function BecomeAdminHint({ email }: { email: string }) {
  const { data: config } = useQuery(clientConfigQueryOptions);
  if (config?.source !== 'local' || !config.canBecomeAdminLocally) return null;
  return (
    <p className="text-gray-300">
      To be an admin here, start Sticky with{' '}
      <code className="rounded bg-white/10 px-1.5 py-0.5 text-gray-100">ADMIN_EMAILS={email}</code>.
    </p>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * Admin (docs/web.md, "Upload"; docs/security.md, "Moderation"): reports beside recent uploads
 * across everyone (hide, unhide, edit, delete, stop a person's uploads), the audit list of admin
 * actions, who is stopped from uploading, the block list and the categories.
 */
export function AdminPage() {
  useDocumentTitle('Admin');
  const { user } = useAuth();
  if (!user?.isAdmin) {
    return (
      <div className="flex flex-col gap-3 py-10 text-center">
        <h1 className="text-3xl font-extrabold">Admin</h1>
        <p className="text-gray-300">Only admins can see this page.</p>
        {user && <BecomeAdminHint email={user.email} />}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Admin</h1>
        <nav aria-label="Admin pages" className="flex flex-wrap gap-3">
          <Link to="/admin/overview" className={buttonStyles.secondary}>
            Overview
          </Link>
          <Link to="/admin/integrations" className={buttonStyles.secondary}>
            Integrations
          </Link>
        </nav>
      </div>
      <div className="grid gap-8 lg:grid-cols-2">
        <Section id="admin-reports" title="Reports">
          <ReportsList />
        </Section>
        <Section id="admin-uploads" title="Recent uploads">
          <p className="text-sm text-gray-300">Recent uploads by everyone, newest first.</p>
          <UploadsTable
            scope="everyone"
            label="Recent uploads"
            emptyText="Nobody has uploaded yet."
          />
        </Section>
      </div>
      <Section id="admin-audit" title="Audit list">
        <AuditList />
      </Section>
      <div className="grid gap-8 lg:grid-cols-3">
        <Section id="admin-bans" title="Stopped from uploading">
          <UploadBansList />
        </Section>
        <Section id="admin-blocked" title="Blocked files">
          <BlockedHashesList />
        </Section>
        <Section id="admin-categories" title="Categories">
          <CategoriesAdmin />
        </Section>
      </div>
    </div>
  );
}

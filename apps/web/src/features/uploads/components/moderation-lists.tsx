import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { buttonStyles } from '@/components/button-styles.ts';
import { ErrorState, LoadingIndicator } from '@/features/content';
import { notify } from '@/lib/notify.ts';
import { refreshAfterAdminAction } from '../api/admin-audit.ts';
import {
  blockedHashesQueryKey,
  blockedHashesQueryOptions,
  unblockHash,
} from '../api/blocked-hashes.ts';
import { liftUploadBan, uploadBansQueryKey, uploadBansQueryOptions } from '../api/upload-bans.ts';
import { NextPageButton } from './next-page-button.tsx';

/** People stopped from uploading, with the reason they see, and Lift. */
export function UploadBansList() {
  const queryClient = useQueryClient();
  const bans = useQuery(uploadBansQueryOptions());
  const lift = useMutation({
    mutationFn: liftUploadBan,
    onSuccess: async () => {
      await refreshAfterAdminAction(queryClient, uploadBansQueryKey);
      void notify('success', 'They can upload again');
    },
    onError: (error) => void notify('error', error.message),
  });
  if (bans.isPending) return <LoadingIndicator label="Loading upload bans…" />;
  if (bans.error) {
    return <ErrorState message={bans.error.message} onRetry={() => void bans.refetch()} />;
  }
  if (bans.data.length === 0) return <p className="py-2 text-gray-300">Nobody is stopped.</p>;
  return (
    <ul aria-label="Stopped from uploading" className="flex flex-col gap-2">
      {bans.data.map((ban) => (
        <li key={ban.person.id} className="flex flex-wrap items-center gap-3 text-sm">
          <span className="text-white">
            {ban.person.name} ({ban.person.email})
          </span>
          <span className="text-gray-300">“{ban.reason}”</span>
          <button
            type="button"
            className={buttonStyles.smallSecondary}
            aria-disabled={lift.isPending || undefined}
            onClick={() => !lift.isPending && lift.mutate(ban.person.id)}
          >
            Let upload again<span className="sr-only"> {ban.person.name}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The block list: files that may not be uploaded again, and Unblock. */
export function BlockedHashesList() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(blockedHashesQueryOptions());
  const unblock = useMutation({
    mutationFn: unblockHash,
    onSuccess: async () => {
      await refreshAfterAdminAction(queryClient, blockedHashesQueryKey);
      void notify('success', 'File unblocked');
    },
    onError: (error) => void notify('error', error.message),
  });
  const hashes = query.data?.pages.flatMap((page) => page.hashes) ?? [];
  if (query.isPending) return <LoadingIndicator label="Loading the block list…" />;
  if (query.error) {
    return <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />;
  }
  return (
    <div className="flex flex-col gap-2">
      {hashes.length === 0 ? (
        <p className="py-2 text-gray-300">No file is blocked.</p>
      ) : (
        <ul aria-label="Blocked files" className="flex flex-col gap-2">
          {hashes.map((hash) => (
            <li key={hash.sha256} className="flex flex-wrap items-center gap-3 text-sm">
              <code className="text-xs break-all text-gray-200">{hash.sha256.slice(0, 16)}…</code>
              <span className="text-gray-400">
                {hash.itemId ? `from item ${hash.itemId}, ` : ''}
                <time dateTime={hash.createdAt}>{new Date(hash.createdAt).toLocaleString()}</time>
              </span>
              <button
                type="button"
                className={buttonStyles.smallSecondary}
                aria-disabled={unblock.isPending || undefined}
                onClick={() => !unblock.isPending && unblock.mutate(hash.sha256)}
              >
                Unblock<span className="sr-only"> the file {hash.sha256.slice(0, 16)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <NextPageButton query={query} label="More blocked files" />
    </div>
  );
}

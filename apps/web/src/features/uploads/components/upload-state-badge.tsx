import type { UploadState } from '@sticky/contracts';

const labels: Record<UploadState, string> = {
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
  hidden: 'Hidden',
};

const styles: Record<UploadState, string> = {
  processing: 'bg-amber-400/15 text-amber-200',
  ready: 'bg-emerald-400/15 text-emerald-200',
  failed: 'bg-red-400/15 text-red-200',
  hidden: 'bg-gray-400/15 text-gray-200',
};

export function UploadStateBadge({ state }: { state: UploadState }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${styles[state]}`}
    >
      {labels[state]}
    </span>
  );
}

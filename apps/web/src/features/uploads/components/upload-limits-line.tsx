import { formatBytes } from '@sticky/contracts';
import type { UploadLimitsResponse } from '@sticky/contracts';

/** What may be sent, and how much of today's allowance is used. */
export function UploadLimitsLine({ limits }: { limits: UploadLimitsResponse }) {
  return (
    <p className="text-sm text-gray-300">
      GIF, animated WebP, PNG or JPEG, up to {formatBytes(limits.maxFileBytes)} each. Today:{' '}
      {limits.itemsUsedToday} of {limits.itemsPerDay} files, {formatBytes(limits.bytesUsedToday)} of{' '}
      {formatBytes(limits.bytesPerDay)}, {limits.megapixelsUsedToday.toLocaleString('en-US')} of{' '}
      {limits.megapixelsPerDay.toLocaleString('en-US')} megapixels of decoding.
    </p>
  );
}

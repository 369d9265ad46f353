const sizeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, useGrouping: false });

/**
 * A size for people, the same on the server's messages and the web's upload screens: kilobytes
 * under one megabyte, megabytes above, at most one decimal and none when it is zero ("0 KB",
 * "512 KB", "1.3 MB", "20 MB"). Binary units, as the limits are set.
 */
export function formatBytes(bytes: number): string {
  const megabyte = 1024 * 1024;
  return bytes < megabyte
    ? `${sizeNumber.format(bytes / 1024)} KB`
    : `${sizeNumber.format(bytes / megabyte)} MB`;
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A UTC day (YYYY-MM-DD) as "Dec 7". */
export function formatDay(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

/** Seconds as the largest whole unit that fits: "45 s", "12 min", "3 h", "2 days". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  const days = Math.floor(seconds / 86_400);
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

const storageUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes of storage in the largest 1024-based unit under 1024: "0 B", "3.0 GB". */
export function formatStorage(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < storageUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${storageUnits[unit]}`;
}

/**
 * Toasts without react-hot-toast on the first screen: the library and the toast area download
 * when the first toast is raised (no screen toasts while it paints). react-hot-toast keeps
 * toasts raised before its Toaster mounts and shows them when it does.
 */
let isToasterWanted = false;
const listeners = new Set<() => void>();

/** For the app shell: is a toast area needed yet? (useSyncExternalStore's pair.) */
export function subscribeToasterWanted(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function getIsToasterWanted(): boolean {
  return isToasterWanted;
}

function requestToaster() {
  if (isToasterWanted) return;
  isToasterWanted = true;
  for (const listener of listeners) listener();
}

export async function notify(kind: 'success' | 'error', message: string): Promise<void> {
  requestToaster();
  const { toast } = await import('react-hot-toast');
  toast[kind](message);
}

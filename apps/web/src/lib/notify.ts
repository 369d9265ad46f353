/**
 * Raises a toast without putting react-hot-toast into the first chunk (the first screen never
 * toasts). Code that is already lazy-loaded can import `toast` from react-hot-toast directly.
 */
export async function notify(kind: 'success' | 'error', message: string): Promise<void> {
  const { toast } = await import('react-hot-toast');
  toast[kind](message);
}

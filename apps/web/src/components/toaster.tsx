import { Toaster } from 'react-hot-toast';
import type { ToasterProps } from 'react-hot-toast';

/**
 * Toasts (docs/web.md, "The spec's rules the web keeps"): success 2 s, error 4 s, blank 4 s,
 * loading until dismissed, at most 20 at once. Those are react-hot-toast's own defaults (its
 * TOAST_LIMIT is 20); they are repeated here so a library update cannot change them silently.
 */
export const toastOptions = {
  success: { duration: 2000 },
  error: { duration: 4000 },
  blank: { duration: 4000 },
  loading: { duration: Infinity },
  style: { background: '#1f2937', color: '#f9fafb', border: '1px solid rgb(255 255 255 / 0.12)' },
} satisfies ToasterProps['toastOptions'];

export function AppToaster() {
  return <Toaster position="top-center" toastOptions={toastOptions} />;
}

import { useEffect } from 'react';

const siteName = 'Sticky';

/** Sets the tab title to "{title} · Sticky" (just "Sticky" without a title) while mounted. */
export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} · ${siteName}` : siteName;
  }, [title]);
}

import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { buttonStyles } from '@/components/button-styles.ts';
import { focusMainContent } from '@/components/landmarks.ts';
import { PageLoader } from '@/components/spinner.tsx';

const CategoriesPanel = lazy(() =>
  import('./categories-panel.tsx').then((module) => ({ default: module.CategoriesPanel })),
);

interface CategoriesDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close: the button or menu that opened it. */
  returnFocusTo: HTMLElement | null;
}

/** The categories panel under the header; any navigation from it closes it. */
export function CategoriesDialog({ open, onOpenChange, returnFocusTo }: CategoriesDialogProps) {
  const close = () => onOpenChange(false);
  const { pathname } = useLocation();
  const latestPathname = useRef(pathname);
  const openedAt = useRef(pathname);
  useLayoutEffect(() => {
    latestPathname.current = pathname;
  }, [pathname]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/60 motion-safe:animate-fade-in" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-x-0 top-0 z-50 mx-auto max-h-[85vh] w-full max-w-5xl overflow-y-auto rounded-b-2xl border border-t-0 border-white/10 bg-gray-900 p-5 shadow-2xl md:top-16 md:w-[calc(100%-2rem)] md:rounded-2xl md:border-t motion-safe:animate-pop-in"
          onOpenAutoFocus={() => {
            openedAt.current = latestPathname.current;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            // Closed by choosing a category: the new screen gets focus, as after any navigation.
            if (latestPathname.current !== openedAt.current) focusMainContent();
            else if (returnFocusTo?.isConnected) returnFocusTo.focus();
          }}
        >
          <div className="mb-4 flex items-center justify-between gap-4">
            <Dialog.Title className="text-xl font-bold text-white">Categories</Dialog.Title>
            <Dialog.Close className={buttonStyles.icon} aria-label="Close categories">
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Suspense fallback={<PageLoader label="Loading categories…" />}>
            <CategoriesPanel onNavigate={close} />
          </Suspense>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

import { LoaderCircle } from 'lucide-react';

export function LoadingIndicator({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex justify-center py-8 text-zinc-300">
      <LoaderCircle aria-hidden="true" className="size-8 animate-spin motion-reduce:animate-none" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

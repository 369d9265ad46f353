import { RotateCw } from 'lucide-react';

interface ErrorStateProps {
  message: string;
  onRetry: () => void;
}

/** A failed content request: the client's own message in the content's place, and a Retry. */
export function ErrorState({ message, onRetry }: ErrorStateProps) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 py-10 text-center">
      <p className="max-w-prose break-words text-zinc-200">{message}</p>
      <button
        type="button"
        onClick={onRetry}
        className="inline-flex items-center gap-2 rounded-md bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500"
      >
        <RotateCw aria-hidden="true" className="size-4" />
        Retry
      </button>
    </div>
  );
}

interface SpinnerProps {
  className?: string;
}

/** A decorative spinner; whoever shows it also says in words what is loading. */
export function Spinner({ className = 'size-5' }: SpinnerProps) {
  return (
    <svg
      className={`${className} motion-safe:animate-spin`}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
      data-testid="spinner"
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

interface PageLoaderProps {
  /** What is loading, for screen readers (shown visually as a spinner only). */
  label?: string;
}

/** The loading indicator of a whole screen (route guards, lazy pages). */
export function PageLoader({ label = 'Loading…' }: PageLoaderProps) {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center text-violet-300">
      <Spinner className="size-10" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

interface LogoProps {
  className?: string;
}

/** Sticky's mark and word mark; the surrounding link or heading gives it its name. */
export function Logo({ className = '' }: LogoProps) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <defs>
          <linearGradient id="sticky-logo-fill" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#a78bfa" />
            <stop offset="1" stopColor="#f472b6" />
          </linearGradient>
        </defs>
        <path
          d="M6 3h20a3 3 0 0 1 3 3v13l-10 10H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3z"
          fill="url(#sticky-logo-fill)"
        />
        <path d="M29 19h-7a3 3 0 0 0-3 3v7z" fill="#fde68a" />
        <circle cx="12" cy="13" r="2" fill="#1e1b4b" />
        <circle cx="20" cy="13" r="2" fill="#1e1b4b" />
        <path
          d="M11 19c2.5 2 7.5 2 10 0"
          stroke="#1e1b4b"
          strokeWidth="2"
          strokeLinecap="round"
          fill="none"
        />
      </svg>
      <span className="text-xl font-extrabold tracking-tight text-white">Sticky</span>
    </span>
  );
}

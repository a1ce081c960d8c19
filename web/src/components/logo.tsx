// The Engram wordmark: a stacked-cards glyph and the product name, linking home.
import { Link } from '@tanstack/react-router';

export function Logo({ className = '' }: { className?: string }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900 ${className}`}>
      <span className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white shadow-sm">
        <svg
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <rect x="7" y="3" width="13" height="15" rx="2" className="opacity-60" />
          <rect x="4" y="6" width="13" height="15" rx="2" fill="currentColor" fillOpacity="0.15" />
        </svg>
      </span>
      <span className="text-lg">Engram</span>
    </Link>
  );
}

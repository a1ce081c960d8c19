// The streak's flame, drawn rather than an emoji so it looks the same on every system.
export function FlameIcon({ lit, className = '' }: { lit: boolean; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={`${lit ? 'text-orange-500' : 'text-slate-300'} ${className}`}
    >
      <path
        fill="currentColor"
        d="M12 2c.6 3.2-1 5.1-2.6 6.9C7.8 10.7 6 12.6 6 15.5A6 6 0 0 0 12 22a6 6 0 0 0 6-6.3c0-2.4-1.1-4.2-2.3-5.6-.2 1.5-.9 2.6-2 3.2.4-3.8-.6-8.3-1.7-11.3Z"
      />
    </svg>
  );
}

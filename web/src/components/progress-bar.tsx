// A bar that says how far something has come, to eyes and to screen readers alike (role progressbar with
// its value and maximum, and the same words as its text); without a maximum yet it only says it is busy.
export function ProgressBar({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  const known = max > 0;
  const percent = known ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={known ? max : undefined}
        aria-valuenow={known ? value : undefined}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-2 rounded-full bg-brand-600 transition-[width] ${known ? '' : 'w-1/3 animate-pulse'}`}
          style={known ? { width: `${percent}%` } : undefined}
        />
      </div>
      <p className="mt-1.5 text-sm text-slate-700" aria-hidden="true">
        {text}
      </p>
    </div>
  );
}

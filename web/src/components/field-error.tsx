// A field's error text, the one its control's aria-describedby points at (text and select fields alike).
export function FieldError({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} className="text-sm text-red-600">
      {children}
    </p>
  );
}

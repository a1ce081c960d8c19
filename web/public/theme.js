// Applies the remembered theme (or the system's) before the first paint, so a dark page never flashes
// light. The app keeps it in step afterwards (src/lib/theme.ts); the key and values are the same.
(() => {
  let choice = null;
  try {
    choice = localStorage.getItem('engram.theme');
  } catch {}
  const dark = choice === 'dark' || (choice !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  root.classList.toggle('cc--darkmode', dark);
})();

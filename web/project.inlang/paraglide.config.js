// Paraglide's options, shared by the `generate` script (CLI) and the Vite plugin.
export default {
  outdir: './src/generated/paraglide',
  // The user's remembered choice wins, then the one set in this page (also how tests switch), then the
  // browser's languages (custom-browserLanguage, defined in src/lib/i18n.ts), then English.
  strategy: ['localStorage', 'globalVariable', 'custom-browserLanguage', 'baseLocale'],
  localStorageKey: 'engram.locale',
  emitReadme: false,
  emitPrettierIgnore: false,
};

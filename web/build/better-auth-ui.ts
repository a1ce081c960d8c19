// How the web app's build takes better-auth-ui, so the sign-in page stays within its JavaScript budget
// (docs/architecture.md#toolchain): the library's published bundle is one module, so every route that shows any of
// its views would carry all of them (account settings, QR codes, session parsing, organizations). Compiled from the
// TypeScript sources it ships instead, each route takes only the components it renders. Its modules and the widgets
// it uses only declare code, so they are marked free of side effects; and the captcha widgets, which Engram
// configures none of, and the QR code of a two-factor set-up are loaded only when rendered. Its default toasts
// import sonner, which Engram loads with the first toast (src/lib/toast.ts): the library's `sonner` is that module
// instead (src/lib/auth-ui/sonner.ts; Engram passes its own toasts anyway).
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const LIBRARY = '@daveyplate/better-auth-ui';

/** Widgets loaded when first rendered: package, and the component better-auth-ui imports (or the default). */
const ON_DEMAND_WIDGETS: Record<string, string> = {
  '@captchafox/react': 'CaptchaFox',
  '@hcaptcha/react-hcaptcha': 'default',
  '@marsidev/react-turnstile': 'Turnstile',
  'react-google-recaptcha': 'default',
  'react-qr-code': 'default',
};

const ON_DEMAND = '\0on-demand:';

const APP_SONNER = fileURLToPath(new URL('../src/lib/auth-ui/sonner.ts', import.meta.url));

/** Packages whose modules only declare code; without the flag their unused exports would stay in the bundle. */
const SIDE_EFFECT_FREE =
  /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:@daveyplate\/better-auth-ui|vaul|react-qr-code|@captchafox\/react|@hcaptcha\/react-hcaptcha|@marsidev\/react-turnstile|react-google-recaptcha)\//;

export const isSideEffectFree = (id: string): boolean => SIDE_EFFECT_FREE.test(id);

/** A component that loads `exportName` of the module at `realPath` when it is first rendered. */
function onDemandModule(realPath: string, exportName: string): string {
  const pick = exportName === 'default' ? 'module.default' : `module[${JSON.stringify(exportName)}]`;
  return [
    "import { createElement, lazy, Suspense } from 'react';",
    `const Widget = lazy(() => import(${JSON.stringify(realPath)}).then((module) => ({ default: ${pick} })));`,
    'function OnDemand(props) {',
    '  return createElement(Suspense, { fallback: null }, createElement(Widget, props));',
    '}',
    exportName === 'default' ? 'export default OnDemand;' : `export { OnDemand as ${exportName} };`,
  ].join('\n');
}

export function betterAuthUi(): Plugin {
  return {
    name: 'engram:better-auth-ui',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source === LIBRARY) {
        const bundle = await this.resolve(source, importer, { skipSelf: true });
        return bundle && { id: bundle.id.replace(/\/dist\/index\.js$/, '/src/index.ts'), moduleSideEffects: false };
      }
      if (source === 'sonner' && importer?.includes(`/${LIBRARY}/src/`)) return APP_SONNER;
      const widget = ON_DEMAND_WIDGETS[source];
      if (widget === undefined || !importer?.includes(`/${LIBRARY}/src/`)) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real && `${ON_DEMAND}${widget}:${real.id}`;
    },
    load(id) {
      if (!id.startsWith(ON_DEMAND)) return null;
      const [exportName = '', ...path] = id.slice(ON_DEMAND.length).split(':');
      return onDemandModule(path.join(':'), exportName);
    },
  };
}

// Builds the SPA into web/dist (served by the gateway at / with an SPA fallback); in dev, proxies /api to the gateway.
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { betterAuthUi, isSideEffectFree } from './build/better-auth-ui';
import { pageHeads } from './build/page-heads';
import { webauthnOnDemand } from './build/webauthn-on-demand';

const gatewayUrl = process.env.ENGRAM_GATEWAY_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    // Compiles web/messages into src/generated/paraglide (options in project.inlang/paraglide.config.js).
    paraglideVitePlugin({ project: './project.inlang' }),
    betterAuthUi(),
    webauthnOnDemand(),
    // dist/page-heads.json: the public pages' titles and descriptions, which the gateway serves in their HTML.
    pageHeads(new URL('./messages/en.json', import.meta.url)),
    react(),
    tailwindcss(),
  ],
  // Workspace packages (@engram/contracts) are compiled from their TypeScript sources, like in tests.
  // One KaTeX (the app's): @vscode/markdown-it-katex would otherwise bundle an older one, unmatched by the CSS.
  resolve: { conditions: ['@engram/source', 'module', 'browser', 'development|production'], dedupe: ['katex'] },
  server: {
    port: 5173,
    proxy: { '/api': { target: gatewayUrl, changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: gatewayUrl, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: { treeshake: { moduleSideEffects: (id: string) => !isSideEffectFree(id) } },
  },
});

// Builds the SPA into web/dist (served by the gateway at / with an SPA fallback); in dev, proxies /api to the gateway.
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
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
    // The installable app: dist/manifest.webmanifest and the service worker dist/sw.js, built from src/sw.ts with the
    // list of files to precache (registered after the first render, src/lib/service-worker.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Engram',
        short_name: 'Engram',
        description: 'Flashcards from your own notes, each review scheduled just before you would forget it.',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        theme_color: '#4f46e5',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        shortcuts: [{ name: 'Practice', url: '/practice', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] }],
      },
      injectManifest: {
        // A classic script: every browser that runs service workers runs it.
        rollupFormat: 'iife',
        // The app's code, styles and icons, and KaTeX's fonts in the one format every supported browser reads.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        globIgnores: ['**/*.map', 'sw.js'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
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
    // No polyfill for <link rel="modulepreload">: every browser the app supports preloads modules itself (Chromium
    // 66, Safari 17, Firefox 115), and one that did not would only load them a moment later. It would weigh on
    // every page's first load (the JavaScript budget, web/README.md).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !isSideEffectFree(id) },
      output: {
        // Fewer, larger chunks where splitting bought nothing (a first practice fetched 41 scripts; now 34, checked by
        // end-to-end/browser/first-practice.test.ts): every module the entry imports statically is one chunk with it
        // (Rolldown otherwise splits React, its JSX runtime and a dozen small modules the lazy routes share into
        // chunks of their own, each one more request on every first visit), and the practice screens' words are one
        // chunk (each message two screens shared was a chunk of 200 bytes), with the card-as-text function practice
        // (typed answers) and Browse share (else a chunk of its own, 0.4 KB); and the contracts of a card's content
        // (its schemas, cloze, occlusion and note types, which import each other) are one chunk, not two or three.
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            {
              name: 'practice-words',
              test: /paraglide[\\/]messages[\\/](practice|rating)_|src[\\/]lib[\\/]markdown-text/,
            },
            // (Their own modules alone: zod and the learning contracts stay in the chunks the other pages share.)
            {
              name: 'card-contracts',
              test: /contracts[\\/](src|dist)[\\/](cards|cloze|occlusion|note-types)\.[jt]s$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});

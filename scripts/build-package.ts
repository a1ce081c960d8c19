// Compiles one package's TypeScript to dist/ for production (one file in, one file out, ESM).
// Type checking is tsc's job (`pnpm typecheck`); this only strips types, so it is fast. Relative
// imports written with a `.ts` suffix are rewritten to `.js`, the file they become.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const srcDir = process.argv[2] ?? 'src';
const outDir = 'dist';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|mts)$/.test(entry.name) && !/\.(test|spec|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const relativeTsImport = /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g;

rmSync(outDir, { recursive: true, force: true });
const entryPoints = sources(srcDir);
const result = await build({
  entryPoints,
  outdir: outDir,
  outbase: srcDir,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  sourcemap: 'inline',
  logLevel: 'warning',
  write: false,
});
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text.replace(relativeTsImport, '$1$2$3.js$2'));
}
console.log(`built ${entryPoints.length} files from ${srcDir}/ into ${outDir}/`);

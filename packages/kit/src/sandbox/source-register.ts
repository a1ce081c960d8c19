// Loaded with `--import` into a child process started from TypeScript sources (child-process.ts): see
// source-hooks.ts.
import { register } from 'node:module';

register(new URL('./source-hooks.ts', import.meta.url));

// Generates the TypeScript contracts in gen/ from the .proto files with buf and the local ts-proto
// plugin; nothing is downloaded (buf's binary ships in its npm package).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
rmSync(`${here}/gen`, { recursive: true, force: true });
execFileSync(`${here}/node_modules/.bin/buf`, ['generate'], { cwd: here, stdio: 'inherit' });

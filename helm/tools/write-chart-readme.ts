// Regenerates the values table of helm/engram/README.md from the `# --` comments in values.yaml.
// `node helm/tools/write-chart-readme.ts` writes it; `--check` exits 1 when the committed README is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chartDir, readChartFile, regenerateReadme } from './chart-readme.ts';

const current = readChartFile('README.md');
const generated = regenerateReadme(current, readChartFile('values.yaml'));
if (process.argv.includes('--check')) {
  if (generated !== current) {
    console.error('helm/engram/README.md is stale: run node helm/tools/write-chart-readme.ts');
    process.exit(1);
  }
  console.log('helm/engram/README.md is up to date');
} else {
  writeFileSync(join(chartDir, 'README.md'), generated);
  console.log(generated === current ? 'helm/engram/README.md unchanged' : 'helm/engram/README.md updated');
}

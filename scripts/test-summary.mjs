#!/usr/bin/env node
// Prints the closing line of a test run from vitest's JSON report: "Tests: N passed, N failed".
// Plain JavaScript, so it runs on any Node the machine has.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.cache/test-results.json';
try {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = report.numPendingTests + report.numTodoTests;
  const line = `Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed`;
  console.log(skipped > 0 ? `${line}, ${skipped} skipped` : line);
} catch (error) {
  console.log(`Tests: no report at ${file} (${error.message})`);
}

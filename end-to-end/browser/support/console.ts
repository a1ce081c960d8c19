// What a clean screen never shows: an error in the console or the page, a request that fails (status 400
// or more: no screen makes one it expects to fail), or a request to another origin (the tests' profiles
// have answered the cookie banner with "Necessary only", or not at all: no third party may hear of the
// visit). Each problem names the screen it happened on.
import type { Page } from 'playwright-core';

/** Starts watching `page`; the returned list fills with its problems as they happen. */
export function watchProblems(page: Page, origin: string, problems: string[] = []): string[] {
  const where = () => new URL(page.url()).pathname;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${where()}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${where()}: page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${where()}: ${response.status()} ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin) {
      problems.push(`${where()}: another origin before consent: ${request.url()}`);
    }
  });
  return problems;
}

// What `npm start -- --smoke` checks once every process reports ready: the app answers on its public
// URL the way a browser meets it (the web app's page, the auth API through the gateway, and the tRPC API
// refusing a signed-out caller rather than failing).

async function expectAnswer(url: string, check: (response: Response, body: string) => string | undefined) {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'text/html,application/json' },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Error(`${url} did not answer: ${(error as Error).message}`);
  }
  const body = await response.text();
  const problem = check(response, body);
  if (problem) throw new Error(`${url}: ${problem} (status ${response.status})`);
}

export async function smokeCheck(baseUrl: string): Promise<void> {
  await expectAnswer(`${baseUrl}/`, (response, body) =>
    response.ok && body.includes('id="root"') ? undefined : 'the web app page is not served',
  );
  await expectAnswer(`${baseUrl}/api/auth/get-session`, (response) =>
    response.ok ? undefined : 'the auth API did not answer through the gateway',
  );
  await expectAnswer(`${baseUrl}/api/trpc/cards.list`, (response, body) =>
    response.status === 401 && body.includes('UNAUTHORIZED')
      ? undefined
      : 'the tRPC API did not refuse a signed-out caller',
  );
}

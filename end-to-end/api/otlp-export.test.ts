// With OTEL_EXPORTER_OTLP_ENDPOINT set, every process exports its spans over OTLP/HTTP, and one request
// is one trace across the gateway and the services it calls. A small OTLP receiver stands in for the
// collector.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { afterAll, beforeAll, expect, it } from 'vitest';

interface ExportedSpan {
  service: string;
  traceId: string;
  name: string;
}

const received: ExportedSpan[] = [];
let collector: Server;
let stack: TestStack | undefined;

/** Reads the services and spans out of an OTLP/HTTP JSON export request. */
function collect(body: string) {
  const request = JSON.parse(body) as {
    resourceSpans?: {
      resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
      scopeSpans?: { spans?: { traceId: string; name: string }[] }[];
    }[];
  };
  for (const resourceSpans of request.resourceSpans ?? []) {
    const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) received.push({ service, traceId: span.traceId, name: span.name });
    }
  }
}

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') collect(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  // A stack of its own: every service sends its traces to this file's collector.
  stack = await startTestStack({ extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => collector.close(resolve));
});

it('exports one trace for a request across the gateway, identity and cards', async () => {
  const running = stack!;
  const cookie = await signUpThroughGateway(running.url, 'otlp');
  const traceId = randomBytes(16).toString('hex');
  const created = await fetch(`${running.url}/api/trpc/cards.create`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie,
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
    body: JSON.stringify({ front: 'exported', back: 'trace' }),
  });
  expect(created.status).toBe(200);

  // Stopping the processes flushes their span exporters.
  await running.stop();
  stack = undefined;

  const services = new Set(received.filter((span) => span.traceId === traceId).map((span) => span.service));
  expect([...services].sort()).toEqual(['cards', 'gateway', 'identity']);
});

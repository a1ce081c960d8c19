// HTTP requests to a gateway from a chosen loopback address (127.0.0.2, 127.0.0.3, …): Linux answers all
// of 127.0.0.0/8 locally, so one test file can be several clients, each with a per-address count of its own.
import { request } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the web app reads them, by shape
export type Json = any;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Json;
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A client at `localAddress` for the gateway at `gatewayUrl` (its `localhost` is reached over IPv4). */
export function clientAt(localAddress: string, gatewayUrl: string) {
  const base = gatewayUrl.replace('//localhost:', '//127.0.0.1:');
  return (path: string, init: RequestInit = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const outgoing = request(
        `${base}${path}`,
        { method: init.method ?? 'GET', headers: init.headers ?? {}, localAddress },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text && JSON.parse(text) }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(init.body);
    });
}

// The calls of one attack as the browser makes them, each timed and counted, and what every attack reports.
import { randomBytes } from 'node:crypto';
import { appRouter } from '@engram/gateway/router';
import type { StackSettings } from '@engram/local/components';
import { authAction, signedUp } from '@engram/testkit/people';
import { percentile } from '../../measure.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the web app reads them, by shape
export type Json = any;

/** One attack's outcome: how many calls it made, and each one that got through (or answered 5xx). */
export interface AttackResult {
  name: string;
  attempts: number;
  /** Each call that succeeded, leaked, answered 5xx or changed something: none may. */
  breaches: string[];
  p50: number;
  p99: number;
}

/** The stack under attack: its public URL and its settings (internal key, gRPC ports, database). */
export interface AttackTarget {
  url: string;
  settings: StackSettings;
}

/** One tRPC call's answer as the browser gets it: the HTTP status and the body. */
export interface Answer {
  status: number;
  body: Json;
}

export const suffix = () => randomBytes(4).toString('hex');

export const procedures = () =>
  Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Json> } })._def.procedures).map(
    ([path, procedure]) => ({ path, type: procedure._def.type as 'query' | 'mutation' }),
  );
export const typeOf = (path: string) => procedures().find((p) => p.path === path)?.type;

/** The calls of one attack: each one timed and counted. */
export class Session {
  readonly url: string;
  attempts = 0;
  times: number[] = [];

  constructor(url: string) {
    this.url = url;
  }

  /** Calls a procedure as the web app would (GET for a query, POST for a mutation), whatever comes back. */
  async send(who: { cookie: string }, path: string, input: unknown, headers: Record<string, string> = {}) {
    const common = { origin: this.url, cookie: who.cookie, ...headers };
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return this.fetch(
      typeOf(path) === 'query'
        ? [`${this.url}/api/trpc/${path}${query}`, { headers: common }]
        : [
            `${this.url}/api/trpc/${path}`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...common },
              body: input === undefined ? undefined : JSON.stringify(input),
            },
          ],
    );
  }

  /** Any HTTP request of the attack, timed and counted; the body parsed when it is JSON. */
  async fetch([url, init]: [string, RequestInit]): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(url, init);
    const text = await response.text();
    this.times.push(performance.now() - started);
    this.attempts += 1;
    let body: Json;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body };
  }

  /** A call that must succeed (setting the scene, not attacking): its data. */
  async call(who: { cookie: string }, path: string, input?: unknown): Promise<Json> {
    const answer = await this.send(who, path, input);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.result.data;
  }

  person = (label: string) => signedUp(this.url, label);

  /** better-auth's organization endpoints as the web app calls them. */
  organization = (who: { cookie: string }, path: string, body: unknown) =>
    authAction(this.url, who, `organization/${path}`, body);

  result(name: string, breaches: string[]): AttackResult {
    const sorted = [...this.times].sort((a, b) => a - b).map((ms) => ({ at: 0, ms }));
    return { name, attempts: this.attempts, breaches, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
}

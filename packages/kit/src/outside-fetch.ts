// Fetching a URL a user named, from a server: the guard every server-side fetch of an outside address goes
// through (AnkiConnect's media `url`s, for one). It refuses what would let a caller reach inside our network or
// hold a server up:
// - only http and https;
// - only public addresses: a host that resolves to a loopback, private, link-local, carrier-grade NAT, multicast
//   or otherwise reserved address (IPv4 or IPv6, mapped addresses unwrapped) is refused, and the check is made
//   on the address the connection then uses (the lookup is ours), so a name that resolves differently the second
//   time gains nothing; a redirect (at most `maxRedirects`) is checked the same way;
// - at most `maxBytes` (by Content-Length, and counted as they arrive) and `timeoutMs` for the whole fetch.
// `allowPrivate` lifts the address check: a development machine's own servers, and tests. Never in production.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface OutsideFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  /** Lifts the public-address check (development and tests only). */
  allowPrivate?: boolean;
  signal?: AbortSignal;
}

/** A fetch the guard refused, or one that failed: the message says which, for the user who named the URL. */
export class OutsideFetchFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutsideFetchFailed';
  }
}

/** Whether an address is one the public internet routes to. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((each) => !isPublicAddress(each.address));
      if (refused || addresses.length === 0) {
        return callback(new OutsideFetchFailed(`${hostname} is not a public address.`), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses as [LookupAddress];
      return callback(null, first.address, first.family);
    });
  };

/** The body of `url` and its type, within the guard's limits. */
export async function fetchOutside(
  url: string,
  options: OutsideFetchOptions,
): Promise<{ bytes: Buffer; contentType: string }> {
  const { maxRedirects = 3, allowPrivate = false } = options;
  const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])]);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutsideFetchFailed(`${url.slice(0, 200)} is not a URL.`);
  }
  for (let redirects = 0; ; redirects += 1) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new OutsideFetchFailed(`Only http and https addresses can be fetched, not ${target.protocol}`);
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !allowPrivate && !isPublicAddress(host)) {
      throw new OutsideFetchFailed(`${host} is not a public address.`);
    }
    const response = await requestOnce(target, allowPrivate, signal, options.timeoutMs);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (redirects >= maxRedirects)
        throw new OutsideFetchFailed(`${target.host} redirected more than ${maxRedirects} times.`);
      target = new URL(location, target);
      continue;
    }
    if (!response.statusCode || response.statusCode >= 400) {
      response.resume();
      throw new OutsideFetchFailed(`${target.host} answered ${response.statusCode ?? 'nothing'}.`);
    }
    const length = Number(response.headers['content-length'] ?? 0);
    if (length > options.maxBytes) {
      response.destroy();
      throw new OutsideFetchFailed(`The file at ${target.host} is larger than ${options.maxBytes} bytes.`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of response) {
        total += (chunk as Buffer).length;
        if (total > options.maxBytes) {
          response.destroy();
          throw new OutsideFetchFailed(`The file at ${target.host} is larger than ${options.maxBytes} bytes.`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof OutsideFetchFailed) throw error;
      throw new OutsideFetchFailed(
        timedOut(signal, options.timeoutMs) ?? `The file at ${target.host} did not arrive whole.`,
      );
    }
    return { bytes: Buffer.concat(chunks), contentType: String(response.headers['content-type'] ?? '') };
  }
}

const timedOut = (signal: AbortSignal, timeoutMs: number) =>
  signal.aborted ? `The fetch took longer than ${timeoutMs / 1000} s.` : undefined;

function requestOnce(target: URL, allowPrivate: boolean, signal: AbortSignal, timeoutMs: number) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const request = client.get(
      target,
      { lookup: guardedLookup(allowPrivate), signal, headers: { 'user-agent': 'Engram' } },
      resolve,
    );
    request.on('error', (error) => {
      if (error instanceof OutsideFetchFailed) return reject(error);
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof OutsideFetchFailed) return reject(cause);
      reject(new OutsideFetchFailed(timedOut(signal, timeoutMs) ?? `${target.host} could not be reached.`));
    });
  });
}

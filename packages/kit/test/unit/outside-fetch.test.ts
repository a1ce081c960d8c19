// The guard of every server-side fetch of a URL a user named: public addresses only (whatever a name resolves
// to, and wherever a redirect points), http and https only, within a size and a time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOutside, isPublicAddress } from '../../src/outside-fetch.js';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/small') return res.end('hello');
    if (req.url === '/big') return res.end(Buffer.alloc(2048));
    if (req.url === '/unsized') {
      res.write(Buffer.alloc(1024));
      return setTimeout(() => res.end(Buffer.alloc(1024)), 10);
    }
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 2_000);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server?.close());

const limits = { maxBytes: 1500, timeoutMs: 5_000 };

describe('which addresses are public', () => {
  it('takes public addresses and refuses loopback, private, link-local, shared and mapped ones', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('fetching a URL a user named', () => {
  it('refuses this machine, by address or by a name that resolves to it', async () => {
    await expect(fetchOutside(`http://127.0.0.1:${port}/small`, limits)).rejects.toThrow(
      '127.0.0.1 is not a public address.',
    );
    await expect(fetchOutside(`http://localhost:${port}/small`, limits)).rejects.toThrow(
      'localhost is not a public address.',
    );
    await expect(fetchOutside(`http://[::1]:${port}/small`, limits)).rejects.toThrow('::1 is not a public address.');
  });

  it('refuses schemes other than http and https, and what is not a URL', async () => {
    await expect(fetchOutside('file:///etc/passwd', limits)).rejects.toThrow('Only http and https');
    await expect(fetchOutside('not a url', limits)).rejects.toThrow('is not a URL');
  });

  it('with private addresses allowed (development), fetches within its size, redirects and time', async () => {
    const allowed = { ...limits, allowPrivate: true };
    expect((await fetchOutside(`http://127.0.0.1:${port}/small`, allowed)).bytes.toString()).toBe('hello');
    await expect(fetchOutside(`http://127.0.0.1:${port}/big`, allowed)).rejects.toThrow('larger than 1500 bytes');
    await expect(fetchOutside(`http://127.0.0.1:${port}/unsized`, allowed)).rejects.toThrow('larger than 1500 bytes');
    await expect(fetchOutside(`http://127.0.0.1:${port}/loop`, allowed)).rejects.toThrow(
      'redirected more than 3 times',
    );
    await expect(fetchOutside(`http://127.0.0.1:${port}/gone`, allowed)).rejects.toThrow('answered 404');
    await expect(fetchOutside(`http://127.0.0.1:${port}/slow`, { ...allowed, timeoutMs: 200 })).rejects.toThrow(
      'The fetch took longer than 0.2 s.',
    );
  });
});

#!/usr/bin/env node
// Engram's AnkiConnect relay, for the Anki tools that only speak to AnkiConnect on this computer
// (http://127.0.0.1:8765) and send no API key, Obsidian_to_Anki among them. It listens there and passes every
// request on to Engram's AnkiConnect address with your Engram API key added; a file a request names by its
// `path` on this computer (which Engram, on a server, cannot open) is read here and sent as its data. Engram's
// answer comes back as it is.
//
//   node anki-connect-relay.mjs --url https://engram.example/api/anki-connect --key engram_…
//
// Only requests from no browser page, or from the origins of Anki tools (Obsidian, browser extensions,
// localhost pages), are relayed: another site open in your browser cannot act on your cards through it.
// Needs Node.js 20 or later, nothing else.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const HELP = `Usage: node anki-connect-relay.mjs --url <Engram's AnkiConnect URL> --key <Engram API key> [options]

Relays AnkiConnect requests from tools that only reach http://127.0.0.1:8765 to Engram, adding your API key.

Options:
  --url <url>            Engram's AnkiConnect address (or ENGRAM_URL), e.g. https://engram.example/api/anki-connect
  --key <key>            an Engram API key with read and write (or ENGRAM_API_KEY); create one on Account > API keys
  --port <port>          where to listen (default 8765, AnkiConnect's; 0 picks a free one)
  --host <host>          the address to listen on (default 127.0.0.1: this computer only)
  --allow-origin <orig>  one more browser origin allowed to use the relay (may be repeated)
  -h, --help             this text
`;

/** Origins of Anki tools: Obsidian, browser extensions, pages on this computer. */
const TOOL_ORIGIN =
  /^(app:\/\/obsidian\.md|(chrome|moz|safari-web)-extension:\/\/[^/]+|https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?)$/;
const MEDIA_FIELDS = ['audio', 'video', 'picture'];
const MAX_BODY_BYTES = 64 * 1024 * 1024;

function options() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: process.env.ENGRAM_URL },
      key: { type: 'string', default: process.env.ENGRAM_API_KEY },
      port: { type: 'string', default: '8765' },
      host: { type: 'string', default: '127.0.0.1' },
      'allow-origin': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (!values.url || !values.key) {
    process.stderr.write(`Both --url and --key are needed.\n\n${HELP}`);
    process.exit(2);
  }
  return values;
}

/** The file at `path` as AnkiConnect's `data`, with the name it is stored under if none was given. */
async function withData(media) {
  if (!media || typeof media !== 'object' || typeof media.path !== 'string' || media.data !== undefined) return media;
  const { path, ...rest } = media;
  const data = (await readFile(path)).toString('base64');
  return { ...rest, filename: rest.filename ?? basename(path), data };
}

/** A request as Engram takes it: the key added (to `multi`'s entries too) and files by path read here. */
async function relayed(request, key) {
  if (!request || typeof request !== 'object' || Array.isArray(request)) return request;
  let params = request.params && typeof request.params === 'object' ? { ...request.params } : request.params;
  if (request.action === 'multi' && Array.isArray(params?.actions)) {
    params.actions = await Promise.all(params.actions.map((entry) => relayed(entry, key)));
  }
  if (request.action === 'storeMediaFile' && params) params = await withData(params);
  const notes = [params?.note, ...(Array.isArray(params?.notes) ? params.notes : [])].filter(Boolean);
  for (const note of notes) {
    for (const field of MEDIA_FIELDS) {
      if (Array.isArray(note[field])) note[field] = await Promise.all(note[field].map(withData));
      else if (note[field]) note[field] = await withData(note[field]);
    }
  }
  return { ...request, ...(params !== undefined && { params }), key: request.key ?? key };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error('request too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function startRelay({ url, key, port, host, allowOrigin = [] }) {
  const allowed = new Set(allowOrigin);
  const server = createServer(async (req, res) => {
    const origin = req.headers.origin;
    res.setHeader('access-control-allow-origin', origin ?? '*');
    res.setHeader('access-control-allow-headers', 'content-type');
    if (origin && !TOOL_ORIGIN.test(origin) && !allowed.has(origin)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`The relay does not take requests from ${origin}.\n`);
      return;
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(200).end();
      return;
    }
    try {
      const body = await readBody(req);
      let forwarded = body;
      if (body.trim() !== '') {
        let request;
        try {
          request = JSON.parse(body);
        } catch {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ result: null, error: 'the request is not JSON' }));
          return;
        }
        forwarded = JSON.stringify(await relayed(request, key));
      }
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: forwarded,
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: null, error: `The relay could not reach Engram: ${error.message}` }));
    }
  });
  return new Promise((resolve) => server.listen(Number(port), host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('anki-connect-relay.mjs')) {
  const settings = options();
  const server = await startRelay({ ...settings, allowOrigin: settings['allow-origin'] });
  const { port } = server.address();
  process.stdout.write(`Relaying http://${settings.host}:${port} to ${settings.url}\n`);
}

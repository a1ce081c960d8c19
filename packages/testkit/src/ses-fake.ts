// A stand-in for Amazon SES at its HTTP protocol (API v2, SendEmail), for tests that drive the real SDK:
// it records each request and answers as SES does, with a MessageId or, when told to, MessageRejected.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as bodyText } from 'node:stream/consumers';

/** One SendEmail request as SES received it: the JSON body, and the headers that matter. */
export interface SesRequest {
  body: {
    FromEmailAddress?: string;
    Destination?: { ToAddresses?: string[] };
    Content?: {
      Simple?: {
        Subject?: { Data?: string; Charset?: string };
        Body?: { Text?: { Data?: string }; Html?: { Data?: string } };
      };
    };
  };
  /** The SigV4 Authorization header (credential scope names the region and service). */
  authorization: string;
  messageId?: string;
}

export interface SesFake {
  /** The endpoint to give the SDK (`endpoint`) or SES_ENDPOINT. */
  url: string;
  requests: SesRequest[];
  /** The next `count` sends are refused with 400 MessageRejected, as for an unverified sender. */
  rejectNext(count?: number): void;
  stop(): Promise<void>;
}

const SEND_EMAIL_PATH = '/v2/email/outbound-emails';

export async function startSesFake(): Promise<SesFake> {
  const requests: SesRequest[] = [];
  let rejections = 0;
  const server = createServer(async (req, res) => {
    const text = await bodyText(req);
    if (req.method !== 'POST' || req.url !== SEND_EMAIL_PATH) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'NotFoundException' });
      res.end(JSON.stringify({ message: `no route ${req.method} ${req.url}` }));
      return;
    }
    const request: SesRequest = {
      body: JSON.parse(text) as SesRequest['body'],
      authorization: req.headers.authorization ?? '',
    };
    requests.push(request);
    if (rejections > 0) {
      rejections -= 1;
      res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'MessageRejected' });
      res.end(JSON.stringify({ message: 'Email address is not verified.' }));
      return;
    }
    request.messageId = randomUUID();
    res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify({ MessageId: request.messageId }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    rejectNext(count = 1) {
      rejections = count;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A stand-in for Amazon SNS at its HTTP protocol (the AWS query protocol: form-encoded Action=Publish, XML
// answers), for tests that drive the real SDK: it records each Publish and answers as SNS does, with a
// MessageId or, when told to, an InvalidParameter error (what SNS answers for a number it cannot text).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as bodyText } from 'node:stream/consumers';

/** One Publish request as SNS received it: its parameters, the message attributes, and the signature. */
export interface SnsRequest {
  action: string;
  phoneNumber?: string;
  message?: string;
  /** `AWS.SNS.SMS.SMSType` and the like, by name. */
  attributes: Record<string, string>;
  /** The SigV4 Authorization header (credential scope names the region and service). */
  authorization: string;
  messageId?: string;
}

export interface SnsFake {
  /** The endpoint to give the SDK (`endpoint`) or SNS_ENDPOINT. */
  url: string;
  requests: SnsRequest[];
  /** The next `count` publishes are refused with 400 InvalidParameter. */
  rejectNext(count?: number): void;
  stop(): Promise<void>;
}

const XMLNS = 'http://sns.amazonaws.com/doc/2010-03-31/';

/** `MessageAttributes.entry.N.Name` and `.Value.StringValue`, paired by N. */
function attributesOf(form: URLSearchParams): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [key, name] of form) {
    const entry = /^MessageAttributes\.entry\.(\d+)\.Name$/.exec(key)?.[1];
    if (entry) attributes[name] = form.get(`MessageAttributes.entry.${entry}.Value.StringValue`) ?? '';
  }
  return attributes;
}

function xmlError(code: string, message: string) {
  return `<ErrorResponse xmlns="${XMLNS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;
}

export async function startSnsFake(): Promise<SnsFake> {
  const requests: SnsRequest[] = [];
  let rejections = 0;
  const server = createServer(async (req, res) => {
    const form = new URLSearchParams(await bodyText(req));
    const action = form.get('Action') ?? '';
    if (req.method !== 'POST' || action !== 'Publish') {
      res.writeHead(400, { 'content-type': 'text/xml' });
      res.end(xmlError('InvalidAction', `no action ${action} at ${req.method} ${req.url}`));
      return;
    }
    const request: SnsRequest = {
      action,
      ...(form.has('PhoneNumber') && { phoneNumber: form.get('PhoneNumber') ?? '' }),
      ...(form.has('Message') && { message: form.get('Message') ?? '' }),
      attributes: attributesOf(form),
      authorization: req.headers.authorization ?? '',
    };
    requests.push(request);
    if (rejections > 0) {
      rejections -= 1;
      res.writeHead(400, { 'content-type': 'text/xml' });
      res.end(xmlError('InvalidParameter', 'Invalid parameter: PhoneNumber Reason: the number is not valid'));
      return;
    }
    request.messageId = randomUUID();
    res.writeHead(200, { 'content-type': 'text/xml', 'x-amzn-requestid': randomUUID() });
    res.end(
      `<PublishResponse xmlns="${XMLNS}"><PublishResult><MessageId>${request.messageId}</MessageId></PublishResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></PublishResponse>`,
    );
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

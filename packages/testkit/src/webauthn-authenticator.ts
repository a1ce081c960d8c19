// A software WebAuthn authenticator for API tests: what a platform authenticator and the browser do
// together, producing the JSON that @simplewebauthn/browser hands the server. It creates P-256 (ES256)
// credentials with "none" attestation and signs assertions with them, counting signatures as a real
// authenticator does. Browser tests use Chromium's virtual authenticator instead (docs/architecture.md#toolchain).
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

/** The subset of CBOR (RFC 8949) an attestation object needs. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

export interface RegistrationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

export interface AuthenticationOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export function createSoftwareAuthenticator(origin: string) {
  const credentials: Credential[] = [];
  const rpIdOf = (id: string | undefined) => id ?? new URL(origin).hostname;
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentials,
    /** navigator.credentials.create(): a new credential for these options, as RegistrationResponseJSON. */
    register(options: RegistrationOptions) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const id = randomBytes(32);
      credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
      const coseKey = new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(rpIdOf(options.rp.id)),
        Buffer.from([0x45]), // user present, user verified, attested credential data
        Buffer.alloc(4),
        Buffer.alloc(16), // AAGUID
        length,
        id,
        cbor(coseKey),
      ]);
      const attestationObject = cbor({ fmt: 'none', attStmt: new Map(), authData });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },
    /** navigator.credentials.get(): an assertion by a credential the options allow, as AuthenticationResponseJSON. */
    authenticate(options: AuthenticationOptions) {
      const allowed = options.allowCredentials?.map((c) => c.id);
      const credential = credentials.find((c) => !allowed?.length || allowed.includes(b64url(c.id)));
      if (!credential) throw new Error('no credential for these options');
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authenticatorData = Buffer.concat([sha256(rpIdOf(options.rpId)), Buffer.from([0x05]), counter]);
      const data = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(data)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}

// Reading and writing W3C trace context and the internal token in gRPC metadata.
import type { Metadata } from '@grpc/grpc-js';
import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';

export const AUTHORIZATION_KEY = 'authorization';

export const metadataGetter: TextMapGetter<Metadata> = {
  keys: (carrier) => Object.keys(carrier.getMap()),
  get: (carrier, key) => {
    const values = carrier.get(key);
    return values.length === 0 ? undefined : String(values[0]);
  },
};

export const metadataSetter: TextMapSetter<Metadata> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

export function bearerToken(metadata: Metadata): string | undefined {
  const value = metadata.get(AUTHORIZATION_KEY)[0];
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer (.+)$/.exec(value);
  return match?.[1];
}

// The few protobuf messages of Anki's package format (meta, the media list, note type, field, template and
// deck configs), read and written by hand: a varint reader and writer over the wire format is all they
// need. Field numbers are listed where each message is decoded.

export interface ProtoField {
  field: number;
  /** Wire type 0 (varint) gives a bigint value; 2 (length-delimited) gives bytes; 1 and 5 give bytes too. */
  varint?: bigint;
  bytes?: Uint8Array;
}

export class ProtoError extends Error {}

function readVarint(buf: Uint8Array, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && shift < 70n; i++) {
    const byte = buf[i]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, i + 1];
    shift += 7n;
  }
  throw new ProtoError('truncated varint');
}

/** Every field of one message, in order; throws ProtoError on malformed input. */
export function readMessage(buf: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    at = next;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(buf, at);
      fields.push({ field, varint: value });
      at = after;
    } else if (wire === 2) {
      const [length, after] = readVarint(buf, at);
      const end = after + Number(length);
      if (end > buf.length) throw new ProtoError('truncated bytes');
      fields.push({ field, bytes: buf.subarray(after, end) });
      at = end;
    } else if (wire === 1 || wire === 5) {
      const end = at + (wire === 1 ? 8 : 4);
      if (end > buf.length) throw new ProtoError('truncated fixed');
      fields.push({ field, bytes: buf.subarray(at, end) });
      at = end;
    } else {
      throw new ProtoError(`unsupported wire type ${wire}`);
    }
  }
  return fields;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
export const fieldString = (fields: ProtoField[], n: number) => {
  const bytes = fields.find((f) => f.field === n)?.bytes;
  return bytes ? decoder.decode(bytes) : '';
};
export const fieldNumber = (fields: ProtoField[], n: number) => {
  const value = fields.find((f) => f.field === n)?.varint;
  return value === undefined ? 0 : Number(BigInt.asIntN(64, value));
};
export const fieldPresent = (fields: ProtoField[], n: number) => fields.some((f) => f.field === n);

function writeVarint(out: number[], value: bigint): void {
  let v = BigInt.asUintN(64, value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

const encoder = new TextEncoder();

/** A message writer: fields are appended in the order given, zero values still written when asked. */
export class ProtoWriter {
  private readonly out: number[] = [];
  varint(field: number, value: number | bigint): this {
    writeVarint(this.out, BigInt(field) << 3n);
    writeVarint(this.out, BigInt(value));
    return this;
  }
  bytes(field: number, value: Uint8Array): this {
    writeVarint(this.out, (BigInt(field) << 3n) | 2n);
    writeVarint(this.out, BigInt(value.length));
    for (const byte of value) this.out.push(byte);
    return this;
  }
  string(field: number, value: string): this {
    return this.bytes(field, encoder.encode(value));
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

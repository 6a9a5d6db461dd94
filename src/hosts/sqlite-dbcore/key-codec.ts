/**
 * IndexedDB keys as bytes whose unsigned byte order (SQLite's BLOB order, memcmp) is IndexedDB's
 * key order: number < Date < string < binary < array, arrays element by element, a prefix first.
 * Every value ends where its bytes say, so a compound key's components concatenate safely.
 */

const NUMBER = 0x10;
const DATE = 0x20;
const STRING = 0x30;
const BINARY = 0x40;
const ARRAY = 0x50;
/** Ends a string, a binary or an array; below every tag and every encoded unit. */
const END = 0x00;

/** An IndexedDB key: the values `indexedDB.cmp` accepts. */
export type IdbKey = number | string | Date | ArrayBuffer | ArrayBufferView | IdbKey[];

/** Whether `value` is a valid IndexedDB key (NaN, invalid dates, booleans, null, holes are not). */
export function isValidKey(value: unknown, seen: Set<unknown> = new Set()): value is IdbKey {
  if (typeof value === 'number') return !Number.isNaN(value);
  if (typeof value === 'string') return true;
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  if (!Array.isArray(value) || seen.has(value)) return false;
  seen.add(value);
  for (let i = 0; i < value.length; i++) {
    if (!(i in value) || !isValidKey(value[i], seen)) return false;
  }
  seen.delete(value);
  return true;
}

class ByteWriter {
  bytes = new Uint8Array(32);
  length = 0;

  ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  byte(value: number): void {
    this.ensure(1);
    this.bytes[this.length++] = value;
  }

  float(value: number): void {
    this.ensure(8);
    const view = new DataView(this.bytes.buffer, this.length, 8);
    // -0 is the same key as 0.
    view.setFloat64(0, value === 0 ? 0 : value);
    // Negative numbers: every bit flipped (larger magnitude sorts lower); others: the sign bit set.
    if (this.bytes[this.length]! & 0x80) {
      for (let i = 0; i < 8; i++) this.bytes[this.length + i] = ~this.bytes[this.length + i]! & 0xff;
    } else {
      this.bytes[this.length]! |= 0x80;
    }
    this.length += 8;
  }
}

/** The sortable bytes of a valid key (callers check validity first: see `isValidKey`). */
export function encodeKey(key: IdbKey): Uint8Array {
  const writer = new ByteWriter();
  write(writer, key);
  return writer.bytes.slice(0, writer.length);
}

function write(writer: ByteWriter, key: IdbKey): void {
  if (typeof key === 'number') {
    writer.byte(NUMBER);
    writer.float(key);
  } else if (typeof key === 'string') {
    writer.byte(STRING);
    writeUnits(writer, key);
    writer.byte(END);
  } else if (key instanceof Date) {
    writer.byte(DATE);
    writer.float(key.getTime());
  } else if (Array.isArray(key)) {
    writer.byte(ARRAY);
    for (const item of key) write(writer, item);
    writer.byte(END);
  } else {
    writer.byte(BINARY);
    const bytes = key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
    writer.ensure(bytes.length * 2 + 1);
    // Two bytes per byte, the first never END: high nibble + 1, then the low nibble.
    for (const b of bytes) {
      writer.bytes[writer.length++] = (b >> 4) + 1;
      writer.bytes[writer.length++] = b & 0x0f;
    }
    writer.byte(END);
  }
}

/**
 * UTF-16 code units (IndexedDB compares strings by code unit), each in 1 to 3 bytes whose order
 * follows the unit's and whose first byte is never END: 0x0000-0x007E as one byte 0x01-0x7F,
 * up to 0x407E as two bytes from 0x80, the rest as three bytes from 0xC0.
 */
function writeUnits(writer: ByteWriter, text: string): void {
  writer.ensure(text.length * 3);
  const { bytes } = writer;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit <= 0x7e) {
      bytes[writer.length++] = unit + 1;
    } else if (unit <= 0x407e) {
      const shifted = unit - 0x7f;
      bytes[writer.length++] = 0x80 | (shifted >> 8);
      bytes[writer.length++] = shifted & 0xff;
    } else {
      bytes[writer.length++] = 0xc0 | (unit >> 10);
      bytes[writer.length++] = (unit >> 2) & 0xff;
      bytes[writer.length++] = (unit & 0x03) << 6;
    }
  }
}

/** The key `encodeKey` made these bytes from (binary keys come back as ArrayBuffers). */
export function decodeKey(bytes: Uint8Array): IdbKey {
  const reader = { bytes, at: 0 };
  const key = read(reader);
  if (reader.at !== bytes.length) throw new Error('trailing bytes after an encoded key');
  return key;
}

interface ByteReader {
  bytes: Uint8Array;
  at: number;
}

function read(reader: ByteReader): IdbKey {
  const tag = reader.bytes[reader.at++];
  switch (tag) {
    case NUMBER:
      return readFloat(reader);
    case DATE:
      return new Date(readFloat(reader));
    case STRING:
      return readUnits(reader);
    case ARRAY: {
      const items: IdbKey[] = [];
      while (reader.bytes[reader.at] !== END) items.push(read(reader));
      reader.at++;
      return items;
    }
    case BINARY: {
      const out: number[] = [];
      while (reader.bytes[reader.at] !== END) {
        out.push(((reader.bytes[reader.at]! - 1) << 4) | reader.bytes[reader.at + 1]!);
        reader.at += 2;
      }
      reader.at++;
      return new Uint8Array(out).buffer;
    }
    default:
      throw new Error(`not an encoded key (tag ${String(tag)})`);
  }
}

function readFloat(reader: ByteReader): number {
  const raw = reader.bytes.slice(reader.at, reader.at + 8);
  reader.at += 8;
  if (raw[0]! & 0x80) raw[0]! &= 0x7f;
  else for (let i = 0; i < 8; i++) raw[i] = ~raw[i]! & 0xff;
  return new DataView(raw.buffer).getFloat64(0);
}

function readUnits(reader: ByteReader): string {
  const { bytes } = reader;
  const units: number[] = [];
  let text = '';
  for (let first = bytes[reader.at]!; first !== END; first = bytes[reader.at]!) {
    if (first < 0x80) {
      units.push(first - 1);
      reader.at += 1;
    } else if (first < 0xc0) {
      units.push((((first & 0x3f) << 8) | bytes[reader.at + 1]!) + 0x7f);
      reader.at += 2;
    } else {
      units.push(((first & 0x3f) << 10) | (bytes[reader.at + 1]! << 2) | (bytes[reader.at + 2]! >> 6));
      reader.at += 3;
    }
    // Flushed in chunks: fromCharCode takes its units as arguments.
    if (units.length === 4096) text += String.fromCharCode(...units.splice(0));
  }
  reader.at++;
  return text + String.fromCharCode(...units);
}

/*
 * Reads a ZIP of stored (uncompressed) entries as it streams in, handing each entry's bytes to a
 * sink: the recipient page hashes each file of a share's ZIP as it arrives, so the receipt checks
 * the bytes the recipient got, not what the service says it sent. It reads what the data node
 * writes (yazl: no compression; the CRC and sizes in a data descriptor after each entry's bytes,
 * so an entry's size comes from the caller, who knows the files) and refuses anything else
 * rather than guess.
 */

export interface ZipEntrySink {
  start(name: string, size: number): void;
  /** The next bytes of the current entry (a view: copy what must outlive the call). */
  data(bytes: Uint8Array): void;
  end(name: string, size: number): void;
}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
/** The end of central directory record, without a comment (the node writes none). */
const END_OF_ZIP = 0x06054b50;
const END_LENGTH = 22;
const SIZES_AFTER_DATA = 1 << 3;
const STORED = 0;

interface Entry {
  name: string;
  size: number;
  left: number;
  descriptor: boolean;
}

export class StoredZipReader {
  private entry: Entry | null = null;
  private afterData = false;
  private done = false;
  private held: Uint8Array = new Uint8Array(0);
  private readonly utf8 = new TextDecoder();

  /** `sizeOf`: an entry's size by its name (undefined: not an entry this ZIP should hold). */
  constructor(
    private readonly sink: ZipEntrySink,
    private readonly sizeOf: (name: string) => number | undefined = () => undefined,
  ) {}

  push(chunk: Uint8Array) {
    let buf = this.held.length ? concat(this.held, chunk) : chunk;
    while (buf.length > 0 && !this.done) {
      const used = this.entry && !this.afterData ? this.data(buf) : this.record(buf);
      if (used === 0) break;
      buf = buf.subarray(used);
    }
    // Only a header or a descriptor waits for more bytes: small, so the copy is cheap. Past
    // the entries only the last bytes are kept, for the end record.
    this.held = (this.done ? buf.subarray(Math.max(0, buf.length - END_LENGTH)) : buf).slice();
  }

  /** The stream ended: refuses a ZIP cut short anywhere before its end record. */
  finish() {
    const end = new DataView(this.held.buffer, this.held.byteOffset, this.held.byteLength);
    if (!this.done || end.byteLength < END_LENGTH || end.getUint32(0, true) !== END_OF_ZIP)
      throw new Error("The ZIP ended early: it is incomplete");
  }

  private data(buf: Uint8Array) {
    const entry = this.entry!;
    const n = Math.min(entry.left, buf.length);
    this.sink.data(buf.subarray(0, n));
    entry.left -= n;
    if (entry.left === 0) this.closeData();
    return n;
  }

  private closeData() {
    const entry = this.entry!;
    if (entry.descriptor) this.afterData = true;
    else this.finishEntry();
  }

  private finishEntry() {
    const { name, size } = this.entry!;
    this.entry = null;
    this.afterData = false;
    this.sink.end(name, size);
  }

  /** A local header, a data descriptor or the central directory; 0 when more bytes are needed. */
  private record(buf: Uint8Array): number {
    if (buf.length < 4) return 0;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const signature = view.getUint32(0, true);
    if (this.afterData) return this.descriptor(view);
    if (signature === CENTRAL_HEADER) {
      this.done = true;
      return 0;
    }
    if (signature !== LOCAL_HEADER) throw new Error("This is not a ZIP the page can read");
    if (buf.length < 30) return 0;
    const flags = view.getUint16(6, true);
    const method = view.getUint16(8, true);
    const nameLength = view.getUint16(26, true);
    const headerLength = 30 + nameLength + view.getUint16(28, true);
    if (buf.length < headerLength) return 0;
    if (method !== STORED) throw new Error("The ZIP holds a compressed entry");
    const name = this.utf8.decode(buf.subarray(30, 30 + nameLength));
    const descriptor = (flags & SIZES_AFTER_DATA) !== 0;
    const size = descriptor ? this.sizeOf(name) : view.getUint32(22, true);
    if (size === undefined) throw new Error(`The ZIP holds an unexpected entry "${name}"`);
    this.entry = { name, size, left: size, descriptor };
    this.sink.start(name, size);
    if (size === 0) this.closeData();
    return headerLength;
  }

  /**
   * The descriptor after an entry's bytes: its signature, CRC, then both sizes in 4 bytes each,
   * or 8 for zip64 (what the next record's signature tells apart). Its size must be the one
   * expected: otherwise the bytes read as this entry were not this entry's.
   */
  private descriptor(view: DataView): number {
    if (view.byteLength < 16) return 0;
    if (view.getUint32(0, true) !== DATA_DESCRIPTOR) throw new Error("The ZIP is damaged");
    const { name, size } = this.entry!;
    const short = view.getUint32(12, true) === size && nextIsRecord(view, 16);
    if (!short && view.byteLength < 24) return 0;
    const recorded = short ? size : Number(view.getBigUint64(16, true));
    if (recorded !== size)
      throw new Error(`"${name}" in the ZIP is ${recorded} bytes, not the ${size} shared`);
    this.finishEntry();
    return short ? 16 : 24;
  }
}

/** Whether a local or central header starts at `at` (or the buffer ends there: not yet known). */
function nextIsRecord(view: DataView, at: number) {
  if (view.byteLength < at + 4) return false;
  const s = view.getUint32(at, true);
  return s === LOCAL_HEADER || s === CENTRAL_HEADER;
}

function concat(a: Uint8Array, b: Uint8Array) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

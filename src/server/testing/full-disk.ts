import fs from "node:fs";
import type { WriteCalls } from "@/server/modules/files/blob-store";

type Done = (err: NodeJS.ErrnoException | null, written?: number, buffers?: Buffer[]) => void;

/**
 * The disk's own write calls until `room` more bytes have gone, then a short write and ENOSPC,
 * as a file system that has filled up answers (for `DiskBlobStore.writeCalls`).
 */
export function diskWithRoom(room: number): WriteCalls {
  const write = (fd: number, buf: Buffer, off: number, len: number, pos: unknown, done: Done) => {
    if (room === 0) {
      const err: NodeJS.ErrnoException = new Error("ENOSPC: no space left on device, write");
      err.code = "ENOSPC";
      err.syscall = "write";
      return done(err);
    }
    const take = Math.min(len, room);
    room -= take;
    fs.write(fd, buf, off, take, pos as number | null, (err, written) => done(err, written));
  };
  return {
    open: fs.open,
    close: fs.close,
    write: write as unknown as WriteCalls["write"],
    writev: ((fd: number, bufs: Buffer[], pos: unknown, done: Done) => {
      const all = Buffer.concat(bufs);
      write(fd, all, 0, all.length, pos, (err, written) => done(err, written, bufs));
    }) as unknown as WriteCalls["writev"],
  };
}

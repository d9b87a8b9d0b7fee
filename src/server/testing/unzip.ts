import yauzl from "yauzl";

/** Every entry of a ZIP: name -> bytes (folders end in "/" and have none). */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const out = new Map<string, Buffer>();
      file.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) {
          out.set(entry.fileName, Buffer.alloc(0));
          return file.readEntry();
        }
        file.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on("end", () => resolve(out));
      file.on("error", reject);
      file.readEntry();
    });
  });
}

import fs from "node:fs";

/*
 * The PDFs' fonts: embedded (pdfkit subsets them, so a document carries only the glyphs it
 * prints) and chosen per run of text, so a name prints as itself in whatever script it is in.
 * DejaVu (Debian's fonts-dejavu-core) covers Latin, Greek, Cyrillic, Arabic and Hebrew; Droid
 * Sans Fallback (fonts-droid-fallback) covers CJK. `npm run setup` installs both. On a machine
 * without them the standard PDF fonts are used, which hold Latin-1 only: anything else prints as
 * "?" there (the JSON and CSV keep every name exact).
 */

export type Family = "regular" | "bold" | "mono";

const DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/droid"];
const CJK = "DroidSansFallbackFull.ttf";
/** Each family's faces, first choice first. */
const STACKS: Record<Family, string[]> = {
  regular: ["DejaVuSans.ttf", CJK],
  bold: ["DejaVuSans-Bold.ttf", CJK],
  mono: ["DejaVuSansMono.ttf", "DejaVuSans.ttf", CJK],
};
const STANDARD: Record<Family, string> = {
  regular: "Helvetica",
  bold: "Helvetica-Bold",
  mono: "Courier",
};

/** What pdfkit's embedded font holds: the fontkit font it was made from. */
interface FontkitFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
type Doc = PDFKit.PDFDocument & { _font?: { font?: FontkitFont } };

const fileOf = (name: string) =>
  DIRS.map((d) => `${d}/${name}`).find((p) => fs.existsSync(p)) ?? null;

/**
 * The fontkit fonts, parsed once per thread and handed to each document as they are (pdfkit
 * takes a fontkit font as a source): parsing the 4 MB CJK font for every PDF cost more than the
 * small receipt's layout.
 */
const parsed = new Map<string, FontkitFont>();

export interface Run {
  font: string;
  text: string;
}

/** The fonts one document prints with: which face of a family holds a character. */
export class PdfFonts {
  private readonly faces: Record<Family, { name: string; font: FontkitFont | null }[]>;

  constructor(private readonly doc: Doc) {
    const faces = {} as typeof this.faces;
    for (const family of Object.keys(STACKS) as Family[]) {
      faces[family] = STACKS[family].flatMap((file) => {
        const path = fileOf(file);
        return path ? [{ name: file, font: this.load(file, path) }] : [];
      });
      if (faces[family].length === 0) faces[family] = [{ name: STANDARD[family], font: null }];
    }
    this.faces = faces;
  }

  private load(name: string, path: string): FontkitFont {
    const known = parsed.get(path);
    if (known) {
      this.doc.registerFont(name, known as unknown as Buffer);
      return known;
    }
    this.doc.registerFont(name, fs.readFileSync(path));
    this.doc.font(name);
    const font = this.doc._font?.font;
    if (!font) throw new Error(`pdfkit did not load ${path} as a fontkit font`);
    parsed.set(path, font);
    return font;
  }

  /**
   * The text cut into runs, each in the first face of the family that has its glyphs. A
   * character that is not a letter (a space, a digit, a dot) stays in the run before it when
   * that face has it, so "東京 2.mov" is two runs, not four.
   */
  runs(text: string, family: Family): Run[] {
    const faces = this.faces[family];
    const first = faces[0]!;
    if (!first.font) return [{ font: first.name, text: latin1(text) }];
    if (/^[\x20-\x7e]*$/.test(text)) {
      // A checksum (10,000 of them in a big receipt) needs no shaping: the standard Courier
      // lays out from a table of widths, where an embedded font runs fontkit's layout.
      if (family === "mono") return [{ font: STANDARD.mono, text }];
      // Nearly every name is ASCII, which the first face holds.
      return [{ font: first.name, text }];
    }
    const runs: Run[] = [];
    let current: Run | undefined;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const stay: boolean =
        current !== undefined && !/\p{L}/u.test(ch) && this.has(current.font, family, cp);
      const font: string =
        stay && current
          ? current.font
          : (faces.find((f) => f.font!.hasGlyphForCodePoint(cp)) ?? first).name;
      if (current && current.font === font) current.text += ch;
      else {
        current = { font, text: ch };
        runs.push(current);
      }
    }
    return runs;
  }

  private has(name: string, family: Family, cp: number) {
    return this.faces[family].find((f) => f.name === name)?.font?.hasGlyphForCodePoint(cp) ?? false;
  }

  /** The width of `text` at `size` in points. */
  width(text: string, family: Family, size: number): number {
    let w = 0;
    for (const run of this.runs(text, family)) {
      w += this.doc.font(run.font).fontSize(size).widthOfString(run.text);
    }
    return w;
  }

  /**
   * Writes text at (x, y), or where the last text stopped without them, run by run. With
   * `lineBreak: false` it stays on one line; otherwise it wraps within `width`.
   */
  text(
    text: string,
    family: Family,
    size: number,
    at: { x: number; y: number } | null,
    options: PDFKit.Mixins.TextOptions,
  ) {
    const runs = this.runs(text, family);
    for (const [i, run] of runs.entries()) {
      this.doc.font(run.font).fontSize(size);
      const opts = { ...options, continued: i < runs.length - 1 || options.continued };
      if (i === 0 && at) this.doc.text(run.text, at.x, at.y, opts);
      else this.doc.text(run.text, opts);
    }
  }
}

const latin1 = (s: string) => s.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");

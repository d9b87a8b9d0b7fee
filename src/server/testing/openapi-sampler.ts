import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

/*
 * A small property-based generator over the served OpenAPI document (what Schemathesis does,
 * without Python): values that the document's JSON Schemas accept, and values one bound past
 * what they accept. Strings are drawn from a pool of likely and awkward candidates and kept only
 * when the schema accepts them, so the document itself decides what is valid, never this file.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema is untyped JSON
export type Schema = Record<string, any>;
export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: Schema;
}
export interface MediaTypes {
  [type: string]: { schema?: Schema };
}
export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: MediaTypes };
  responses: Record<string, { description: string; content?: MediaTypes }>;
  security?: Record<string, string[]>[];
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** mulberry32: a seeded generator, so a failure replays exactly. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export type Random = () => number;
const pick = <T>(rnd: Random, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Strings worth trying anywhere: plain, bounded, odd, and the shapes paths and addresses take. */
function genericStrings(s: Schema): string[] {
  const lengths = [s.minLength, s.maxLength].filter((n): n is number => n !== undefined);
  const longPath = Array.from(
    { length: 16 },
    (_, i) => `${String(i).padStart(3, "0")}${"p".repeat(252)}`,
  )
    .join("/")
    .slice(0, 4096)
    .replace(/\/+$/, "");
  return [
    "a",
    "docs",
    "docs/report.txt",
    "Café/été.txt",
    "clip.mov",
    "shots/a.mov",
    ".hidden",
    "...",
    "x".repeat(255),
    "x".repeat(256),
    `a/${"x".repeat(256)}`,
    longPath,
    "/leading",
    "a//b",
    "a/./b",
    "a/../b",
    "a\\b",
    "tab\there",
    "line\nbreak",
    "del\u007f",
    " ",
    "  padded  ",
    "",
    "0",
    "true",
    "mov",
    "prores",
    "tar.gz",
    "ana@example.com",
    "Bob.Smith+tag@Example.co.uk",
    "a!b@example.com",
    "no-at-sign",
    "ana@localhost",
    "https://hooks.example.com/in",
    "http://hooks.example.com/in?x=1",
    "https://user:pw@hooks.example.com/in",
    "ftp://hooks.example.com/in",
    "http://10.0.0.1/in",
    "not a url",
    "+15551234567",
    "*",
    "file.created",
    "share.created",
    "webhook.test",
    "no.such_event",
    "0123456789abcdef",
    "01jz0000000000000000000001",
    "ABCDEF0123",
    "e".repeat(64),
    `whsec_${"A".repeat(32)}`,
    "2026-06-01T12:00:00Z",
    inDays(3),
    inDays(400),
    "approved",
    "😀".repeat(40),
    ...lengths.map((n) => "y".repeat(Math.min(n, 5000))),
  ];
}

export class DocSampler {
  private readonly ajv: Ajv2020;
  private readonly compiled = new WeakMap<Schema, ValidateFunction>();

  constructor(
    readonly doc: OpenApiDoc,
    private readonly fixtures: Record<string, string[]>,
    private readonly rnd: Random,
  ) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(withDocRefs({ $id: "doc", components: doc.components }));
  }

  validator(schema: Schema): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(withDocRefs(schema));
      this.compiled.set(schema, v);
    }
    return v;
  }

  valid(schema: Schema, value: unknown) {
    return this.validator(schema)(value) as boolean;
  }

  errors(schema: Schema, value: unknown) {
    const v = this.validator(schema);
    return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }

  resolve(s: Schema): Schema {
    if (typeof s.$ref !== "string") return s;
    const name = s.$ref.replace("#/components/schemas/", "");
    return this.resolve(this.doc.components.schemas[name]!);
  }

  /** One schema with its `allOf` parts, and a chosen `anyOf`/`oneOf` branch, folded in. */
  private flatten(raw: Schema): Schema {
    const s = this.resolve(raw);
    let out: Schema = { ...s };
    delete out.allOf;
    delete out.anyOf;
    delete out.oneOf;
    for (const part of s.allOf ?? []) out = merge(out, this.flatten(part));
    const branches = s.oneOf ?? s.anyOf;
    if (branches) out = merge(out, this.flatten(pick(this.rnd, branches)));
    return out;
  }

  /** A value the schema accepts, or undefined when none of the tries was accepted. */
  sample(raw: Schema, name = ""): unknown {
    for (let i = 0; i < 30; i++) {
      const value = this.draw(this.flatten(raw), name);
      if (value !== undefined && this.valid(raw, value)) return value;
    }
    return undefined;
  }

  private draw(s: Schema, name: string): unknown {
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) return pick(this.rnd, s.enum);
    const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    const type = types.length ? pick(this.rnd, types) : s.properties ? "object" : "string";
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return this.rnd() < 0.5;
      case "integer":
      case "number":
        return this.number(s, type === "integer");
      case "array":
        return this.array(s, name);
      case "object":
        return this.object(s);
      default:
        return this.string(s, name);
    }
  }

  /** A value named like a fixture (an id, a token) is one of them; other text half the time is. */
  private string(s: Schema, name: string) {
    const ok = (pool: string[]) => pool.filter((c) => this.valid(s, c));
    const own = this.fixtures[name];
    if (own) return ok(own).length ? pick(this.rnd, ok(own)) : undefined;
    const known = ok(this.fixtures["*"] ?? []);
    const accepted = known.length && this.rnd() < 0.5 ? known : ok(genericStrings(s));
    return accepted.length ? pick(this.rnd, accepted) : undefined;
  }

  /** Adds values that later requests may name (ids the service returned, say). */
  learn(name: string, values: string[]) {
    if (values.length === 0) return;
    const known = this.fixtures[name] ?? [];
    for (const v of values) if (!known.includes(v)) known.unshift(v);
    this.fixtures[name] = known;
  }

  private number(s: Schema, integer: boolean) {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
    const max =
      s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 1000);
    const n = pick(this.rnd, [min, max, min + 1, Math.floor((min + max) / 2), 7]);
    return integer ? Math.round(n) : n;
  }

  private array(s: Schema, name: string) {
    const min = s.minItems ?? 0;
    const max = Math.min(s.maxItems ?? min + 3, min + 3);
    const length = min + Math.floor(this.rnd() * (max - min + 1));
    const items = Array.from({ length }, () => this.sample(s.items ?? {}, name));
    return s.uniqueItems ? [...new Set(items)] : items;
  }

  private object(s: Schema) {
    const out: Record<string, unknown> = {};
    const required = new Set<string>(s.required ?? []);
    for (const [key, prop] of Object.entries<Schema>(s.properties ?? {})) {
      if (!required.has(key) && this.rnd() < 0.5) continue;
      const value = this.sample(prop, key);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }

  /**
   * The value with one member, or the value itself, one step past a bound the schema states:
   * too long, too short, too big, too small, not in the enum, of the wrong type, missing.
   */
  invalid(raw: Schema, value: unknown): { value: unknown; why: string } | undefined {
    const s = this.flatten(raw);
    const choices: { value: unknown; why: string }[] = [];
    const outOf = (sub: Schema) => this.outOfBounds(this.flatten(sub));
    if (s.properties && value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, prop] of Object.entries<Schema>(s.properties)) {
        for (const bad of outOf(prop))
          choices.push({ value: { ...value, [key]: bad.value }, why: `${key}: ${bad.why}` });
        if ((s.required ?? []).includes(key)) {
          const { [key]: _, ...rest } = value as Record<string, unknown>;
          choices.push({ value: rest, why: `${key}: missing` });
        }
      }
    } else {
      choices.push(...outOf(s));
    }
    const refused = choices.filter((c) => !this.valid(raw, c.value));
    return refused.length ? pick(this.rnd, refused) : undefined;
  }

  private outOfBounds(s: Schema): { value: unknown; why: string }[] {
    const out: { value: unknown; why: string }[] = [];
    const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    if (types.includes("string") || s.pattern || s.maxLength !== undefined) {
      if (s.maxLength !== undefined && s.maxLength < 20_000)
        out.push({ value: "z".repeat(s.maxLength + 1), why: "over maxLength" });
      if (s.minLength) out.push({ value: "", why: "under minLength" });
    }
    if (types.includes("integer") || types.includes("number")) {
      if (s.maximum !== undefined) out.push({ value: s.maximum + 1, why: "over maximum" });
      if (s.minimum !== undefined) out.push({ value: s.minimum - 1, why: "under minimum" });
    }
    if (Array.isArray(s.enum)) out.push({ value: "not-one-of-these", why: "not in enum" });
    if (types.length && !types.includes("string")) out.push({ value: "text", why: "wrong type" });
    if (s.maxItems !== undefined && s.maxItems <= 500)
      out.push({ value: Array(s.maxItems + 1).fill("x"), why: "over maxItems" });
    return out;
  }
}

/** Both schemas at once; where both constrain a member (or the items), both constraints hold. */
function merge(a: Schema, b: Schema): Schema {
  const both = (x: Schema | undefined, y: Schema | undefined) =>
    x && y ? { allOf: [x, y] } : (x ?? y);
  const properties: Record<string, Schema> = { ...a.properties };
  for (const [key, prop] of Object.entries<Schema>(b.properties ?? {}))
    properties[key] = both(a.properties?.[key], prop)!;
  const items = both(a.items, b.items);
  return {
    ...a,
    ...b,
    properties,
    ...(items ? { items } : {}),
    required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])],
  };
}

function withDocRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
}

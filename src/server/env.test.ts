import { describe, expect, it } from "vitest";
import { loadConfig } from "./env";

const s3 = {
  BLOB_STORE: "s3",
  S3_ENDPOINT: "http://127.0.0.1:9000/",
  S3_BUCKET: "consign",
  S3_ACCESS_KEY_ID: "AKIDEXAMPLE",
  S3_SECRET_ACCESS_KEY: "wJalrXUtnFEMI-never-printed",
};

describe("the blob store settings", () => {
  it("keep the bytes on disk by default", () => {
    expect(loadConfig({}).blobStore).toEqual({ kind: "disk" });
  });

  it("put them in a bucket, path-style when an endpoint is given unless told otherwise", () => {
    expect(loadConfig(s3).blobStore).toEqual({
      kind: "s3",
      s3: {
        endpoint: "http://127.0.0.1:9000",
        region: "us-east-1",
        bucket: "consign",
        credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: s3.S3_SECRET_ACCESS_KEY },
        forcePathStyle: true,
      },
      localCacheBytes: 5120 * 1024 * 1024,
    });
    expect(loadConfig({ ...s3, S3_LOCAL_CACHE_MB: "256" }).blobStore).toMatchObject({
      localCacheBytes: 256 * 1024 * 1024,
    });
    expect(() => loadConfig({ ...s3, S3_LOCAL_CACHE_MB: "10" })).toThrow(/S3_LOCAL_CACHE_MB/);
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: "0" }).blobStore).toMatchObject({
      s3: { forcePathStyle: false },
    });
    const aws = loadConfig({ BLOB_STORE: "s3", S3_BUCKET: "consign", S3_REGION: "eu-west-1" });
    expect(aws.blobStore).toMatchObject({
      s3: { endpoint: null, region: "eu-west-1", credentials: null, forcePathStyle: false },
    });
  });

  it("refuse half a configuration at start-up, without printing the secret", () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error("expected a refusal");
    };
    expect(refusal({ ...s3, S3_BUCKET: "" })).toMatch(/S3_BUCKET/);
    expect(refusal({ BLOB_STORE: "s3" })).toMatch(/S3_BUCKET is required/);
    const { S3_ACCESS_KEY_ID: _, ...secretOnly } = s3;
    const halfKeys = refusal(secretOnly);
    expect(halfKeys).toMatch(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(halfKeys).not.toContain(s3.S3_SECRET_ACCESS_KEY);
    const { BLOB_STORE: __, ...onDisk } = s3;
    expect(refusal(onDisk)).toMatch(/BLOB_STORE is not s3/);
    expect(refusal({ ...s3, BLOB_STORE: "ftp" })).toMatch(/BLOB_STORE/);
  });
});

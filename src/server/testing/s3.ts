import { randomBytes } from "node:crypto";
import { CreateBucketCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { inject } from "vitest";
import type { BlobStoreConfig, S3Settings } from "@/server/env";
import { s3Client } from "@/server/modules/files/s3-blob-store";

/** A new, empty bucket on the test run's S3 server (s3-global-setup.ts). */
export async function freshBucket(): Promise<S3Settings> {
  const { endpoint, accessKeyId, secretAccessKey } = inject("s3");
  const settings: S3Settings = {
    endpoint,
    region: "us-east-1",
    bucket: `consign-${randomBytes(6).toString("hex")}`,
    credentials: { accessKeyId, secretAccessKey },
    forcePathStyle: true,
  };
  await s3Client(settings).send(new CreateBucketCommand({ Bucket: settings.bucket }));
  return settings;
}

/** The config of a service whose bytes live in a fresh bucket. */
export const s3BlobStore = async (): Promise<BlobStoreConfig> => ({
  kind: "s3",
  s3: await freshBucket(),
});

/** An object's size in the bucket, or null when it has none (read past the service). */
export async function objectSize(settings: S3Settings, key: string) {
  try {
    const head = await s3Client(settings).send(
      new HeadObjectCommand({ Bucket: settings.bucket, Key: key }),
    );
    return head.ContentLength ?? 0;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
      return null;
    throw err;
  }
}

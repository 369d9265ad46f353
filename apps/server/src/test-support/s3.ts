import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { AppConfig } from '../config/env.ts';

type S3Storage = Extract<AppConfig['storage'], { kind: 's3' }>;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** What a Sticky server needs to use the bucket (STORAGE=s3 and the S3_* settings). */
  env: Record<string, string>;
  /** The same, as the config holds it: for tests that make a store themselves. */
  storage: S3Storage;
  /** Every key in the bucket, sorted. */
  listKeys: () => Promise<string[]>;
  close: () => Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on a loopback port of its own, with an empty bucket: the
 * storage tests talk to it through AWS's SDK exactly as to MinIO or AWS (docs/testing.md).
 */
export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sticky-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = 'sticky-media';
  // s3rver's own fixed credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    storage: {
      kind: 's3',
      endpoint,
      region: 'us-east-1',
      bucket,
      credentials,
      forcePathStyle: true,
    },
    listKeys: async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((entry) => entry.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    close: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

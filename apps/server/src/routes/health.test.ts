import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support/app.ts';
import type { TestApp } from '../test-support/app.ts';

describe('health endpoints', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers /healthz while the process is up', async () => {
    const response = await testApp.app.inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz when the database answers', async () => {
    const response = await testApp.app.inject('/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', catalog: 'off' });
  });

  it('says 503 on /readyz when the database is gone', async () => {
    const broken = await createTestApp();
    await broken.database.pool.end();
    const response = await broken.app.inject('/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    await broken.app.close();
  });
});

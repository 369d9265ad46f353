import { GiphyFetch, setServerUrl } from '@giphy/js-fetch-api';
import type { TestApp } from './app.ts';

/** The API key the SDK contract tests' apps accept (STICKY_API_KEYS). */
export const sdkTestApiKey = 'sdk-test-key-0123456789abcdefghijklm';

/**
 * GIPHY's own client pointed at `testApp`, which starts listening on a free port: the SDK
 * contract tests call our /v1 as an app built on it would. The SDK's server URL is global to
 * the module, so one test file's app at a time.
 */
export async function connectGiphySdk(
  testApp: TestApp,
): Promise<{ origin: string; gf: GiphyFetch }> {
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const address = testApp.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const origin = `http://127.0.0.1:${address.port}`;
  setServerUrl(`${origin}/v1/`);
  return { origin, gf: new GiphyFetch(sdkTestApiKey) };
}

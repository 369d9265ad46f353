import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import { trimGiphySdk } from './trim-giphy-sdk.ts';

const require = createRequire(import.meta.url);
const sdkFile = require.resolve('@giphy/js-fetch-api').replace(/index\.cjs$/, 'index.js');
const sdkVersion = (
  JSON.parse(fs.readFileSync(path.join(path.dirname(sdkFile), '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

function transform(code: string, id = sdkFile): string | null {
  const hook = trimGiphySdk().transform;
  if (typeof hook !== 'function') throw new Error('expected a transform function');
  const context = { parse: (source: string) => parseAst(source) };
  const result = hook.call(context as never, code, id) as { code: string } | null;
  return result?.code ?? null;
}

describe('trimGiphySdk', () => {
  it("keeps the client's version header and drops the rest of its package.json", () => {
    const original = fs.readFileSync(sdkFile, 'utf8');
    expect(original).toContain('devDependencies');

    const trimmed = transform(original)!;

    expect(trimmed).toContain(`module.exports = { version: "${sdkVersion}" }`);
    expect(trimmed).not.toContain('devDependencies');
    expect(trimmed).not.toContain('typeof __require');
    // The code that names the client in its requests is untouched.
    expect(trimmed).toContain('appendGiphySDKRequestHeader(`X-GIPHY-SDK-VERSION`, version)');
    expect(() => parseAst(trimmed)).not.toThrow();
  });

  it('leaves every other module alone', () => {
    expect(transform('export const a = 1;', '/app/src/main.ts')).toBeNull();
  });

  it('stops the build when the client no longer has the shape it trims', () => {
    expect(() => transform('export const version = "6.0.0";')).toThrow(
      /@giphy\/js-fetch-api's build changed shape/,
    );
  });
});

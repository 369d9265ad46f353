import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without types.
import { describeInstallNode } from '../../../../scripts/announce-node.mjs';

const describeNode = describeInstallNode as (version: string) => string | null;

describe('what npm install says about Node.js', () => {
  it('says once, plainly, that an older Node gets Node 24 installed beside it', () => {
    expect(describeNode('v20.20.2')).toBe(
      'Sticky runs on Node.js 24; this is v20.20.2. npm install puts Node.js 24 into node_modules/.bin (the "node" package), and every npm script runs on it: nothing else to do.',
    );
    expect(describeNode('v24.21.0')).toBeNull();
    expect(describeNode('v25.0.0')).toBeNull();
  });

  it('keeps npm to errors in this project, so its engine warnings do not bury that line', () => {
    const loglevel = execFileSync('npm', ['config', 'get', 'loglevel'], { encoding: 'utf8' });
    expect(loglevel.trim()).toBe('error');
  });
});

import type { Plugin } from 'vite';

/** GIPHY's fetch client as its package ships it for bundlers. */
const sdkModule = /[\\/]@giphy[\\/]js-fetch-api[\\/]dist[\\/]index\.js$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

function findNodes(root: Node, isMatch: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  const visit = (node: Node) => {
    if (isMatch(node)) found.push(node);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.filter(isNode).forEach(visit);
      else if (isNode(value)) visit(value);
    }
  };
  visit(root);
  return found;
}

const isModuleExports = (node: unknown) =>
  isNode(node) &&
  node.type === 'MemberExpression' &&
  isNode(node.object) &&
  node.object.name === 'module' &&
  isNode(node.property) &&
  node.property.name === 'exports';

/**
 * GIPHY's client bundles its whole package.json (scripts, dev dependencies and all) to read its
 * version, behind a check that a `require` helper exists, which in a browser it always does.
 * The check makes the bundler add a `require` shim to the chunk every route loads. This keeps
 * what the client does (it still names itself and its version in its request headers) and
 * drops the rest: together 0.6 KB of every signed-in route's first screen (docs/web.md, "Lazy
 * routes"). The build stops if the client's code no longer has that shape, so an upgrade is
 * looked at rather than silently shipped whole.
 */
export function trimGiphySdk(): Plugin {
  return {
    name: 'sticky-trim-giphy-sdk',
    apply: 'build',
    transform(code, id) {
      if (!sdkModule.test(id)) return null;
      const program = this.parse(code) as unknown as Node;
      const [manifest, ...others] = findNodes(
        program,
        (node) =>
          node.type === 'AssignmentExpression' &&
          isModuleExports(node.left) &&
          isNode(node.right) &&
          node.right.type === 'ObjectExpression' &&
          code.slice(node.right.start, node.right.end).includes('"@giphy/js-fetch-api"'),
      );
      const requireChecks = [...code.matchAll(/typeof __require !== "undefined"/g)];
      const version =
        manifest && /\bversion: ("[^"]+")/.exec(code.slice(manifest.start, manifest.end));
      if (!manifest || others.length > 0 || !version || requireChecks.length !== 1) {
        throw new Error(
          `@giphy/js-fetch-api's build changed shape: revisit apps/web/build/trim-giphy-sdk.ts`,
        );
      }
      const right = manifest.right as Node;
      const check = requireChecks[0]!;
      // Replaced from the end first, so the earlier offsets still hold.
      const edits = [
        { start: right.start, end: right.end, text: `{ version: ${version[1]} }` },
        { start: check.index, end: check.index + check[0].length, text: 'true' },
      ].sort((a, b) => b.start - a.start);
      let trimmed = code;
      for (const edit of edits) {
        trimmed = trimmed.slice(0, edit.start) + edit.text + trimmed.slice(edit.end);
      }
      return { code: trimmed, map: null };
    },
  };
}

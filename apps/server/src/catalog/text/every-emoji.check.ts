/**
 * Draws every Noto emoji, some half off the canvas, the way stickers, scenes and text place
 * them. Run as its own process by emoji-art.test.ts: resvg aborts the process on some inputs,
 * and that must show up as a failed check, never as a dead test runner or server.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import { findEmojiArtByName } from './emoji-art.ts';
import { emojiDef, fmt } from './svg.ts';

const require = createRequire(import.meta.url);
const { icons } = JSON.parse(
  fs.readFileSync(require.resolve('@iconify-json/noto/icons.json'), 'utf8'),
) as { icons: Record<string, unknown> };

const names = Object.keys(icons);
const canvas = 240;
const perSheet = 64;
for (let start = 0; start < names.length; start += perSheet) {
  const batch = names.slice(start, start + perSheet);
  const defs = batch.map((name, index) => emojiDef(`e${index}`, findEmojiArtByName(name)!, 60));
  // A grid from half an emoji off the left and top edges to half off the right and bottom.
  const uses = batch.map((_, index) => {
    const x = -30 + (index % 8) * ((canvas + 60) / 7);
    const y = -30 + Math.floor(index / 8) * ((canvas + 60) / 7);
    return `<use href="#e${index}" transform="translate(${fmt(x)} ${fmt(y)}) rotate(${index * 13}) scale(${1 + (index % 3) * 0.2})" opacity="0.9"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${canvas}" height="${canvas}"><defs>${defs.join('')}</defs>${uses.join('')}</svg>`;
  new Resvg(svg, { font: { loadSystemFonts: false } }).render();
}
process.stdout.write(`drew ${names.length} emoji\n`);

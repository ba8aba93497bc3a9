#!/usr/bin/env node
/**
 * Draws the FIRMA icon (a green rounded square with a white "F") at every size the manifest names,
 * and writes assets/icon-<size>.png. Pure Node (zlib for the PNG's deflate stream), no image tools.
 *
 *   node scripts/make-icons.js            # writes assets/icon-{16,32,64,80,128}.png
 *   node scripts/make-icons.js 16 256     # only those sizes
 *
 * The output is deterministic: running it again gives byte-identical files.
 */
"use strict";

const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const SIZES = [16, 32, 64, 80, 128];
const OUT_DIR = path.resolve(__dirname, "..", "assets");

const GREEN = [0x1d, 0x7a, 0x46]; // close to Excel's green
const WHITE = [0xff, 0xff, 0xff];

/** Shapes in unit coordinates (0..1, y downwards). */
const CORNER_RADIUS = 0.2;
const LETTER_F = [
  // [x0, y0, x1, y1]
  [0.3, 0.2, 0.45, 0.8], // stem
  [0.3, 0.2, 0.73, 0.34], // top bar
  [0.3, 0.44, 0.65, 0.57], // middle bar
];

function inRoundedSquare(x, y) {
  if (x < 0 || y < 0 || x > 1 || y > 1) return false;
  const r = CORNER_RADIUS;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function inLetter(x, y) {
  return LETTER_F.some(([x0, y0, x1, y1]) => x >= x0 && x <= x1 && y >= y0 && y <= y1);
}

/** RGBA pixels, anti-aliased by supersampling each pixel on an n×n grid. */
function render(size, n = 8) {
  const px = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let pxx = 0; pxx < size; pxx++) {
      let green = 0;
      let white = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (pxx + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          if (!inRoundedSquare(x, y)) continue;
          if (inLetter(x, y)) white++;
          else green++;
        }
      }
      const covered = green + white;
      const i = (py * size + pxx) * 4;
      if (covered === 0) continue; // transparent
      for (let c = 0; c < 3; c++) px[i + c] = Math.round((GREEN[c] * green + WHITE[c] * white) / covered);
      px[i + 3] = Math.round((255 * covered) / (n * n));
    }
  }
  return px;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes RGBA pixels as a PNG (8-bit RGBA, no interlace, filter 0 on every row). */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0); // width
  ihdr.writeUInt32BE(size, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (stride + 1)] = 0; // filter type None
    rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function main(argv) {
  const sizes = argv.length ? argv.map(Number) : SIZES;
  for (const s of sizes) {
    if (!Number.isInteger(s) || s < 8 || s > 1024) throw new RangeError(`make-icons: bad size ${s} (8 to 1024)`);
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const size of sizes) {
    const file = path.join(OUT_DIR, `icon-${size}.png`);
    fs.writeFileSync(file, encodePng(size, render(size)));
    console.log(`${path.relative(process.cwd(), file)} (${size}×${size})`);
  }
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { encodePng, render, SIZES };

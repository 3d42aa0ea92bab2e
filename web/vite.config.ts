import { defineConfig, type Plugin } from 'vite';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

/**
 * Writes a `.br` and a `.gz` beside every text file of the build (scripts, styles,
 * the page, SVG), so that the server sends them compressed as they are, without
 * compressing on each request (crates/server/src/web.rs picks one by the
 * request's Accept-Encoding). Files under 1 KiB, or that do not shrink, get none.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'qiyuan-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = c.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((n) => {
          const p = join(dir, n);
          return statSync(p).isDirectory() ? walk(p) : [p];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt|map)$/.test(file)) continue;
        const raw = readFileSync(file);
        if (raw.length < 1024) continue;
        const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/**
 * Shudan's stylesheet paints the Go board with a 195 KB wood photograph, which
 * our Go board covers with its own colour and gradient (games/go/go.css): the
 * picture is left out, so the build neither ships nor embeds it.
 */
function noBoardPhoto(): Plugin {
  return {
    name: 'qiyuan-no-board-photo',
    enforce: 'pre',
    transform(code, id) {
      if (!/@sabaki[\\/]shudan[\\/]css[\\/]goban\.css/.test(id)) return null;
      return { code: code.replace(/url\((['"]?)\.\/board\.png\1\)/g, 'none'), map: null };
    },
  };
}

// The build lands in web/dist, which the server embeds. During `npm run dev` the
// API and WebSocket are proxied to a running `qiyuan serve`.
export default defineConfig({
  base: '/',
  plugins: [noBoardPhoto(), precompress()],
  build: { outDir: 'dist', target: 'es2020', chunkSizeWarningLimit: 1000 },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
      '/game': 'http://127.0.0.1:8080',
    },
  },
});

import { defineConfig } from 'vite';

// The build lands in web/dist, which the server embeds. During `npm run dev` the
// API and WebSocket are proxied to a running `qiyuan serve`.
export default defineConfig({
  base: '/',
  build: { outDir: 'dist', target: 'es2020', chunkSizeWarningLimit: 1000 },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
      '/ws': { target: 'ws://127.0.0.1:8080', ws: true },
      '/game': 'http://127.0.0.1:8080',
    },
  },
});

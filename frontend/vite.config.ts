import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@rna/domain': fileURLToPath(new URL('../domain/src/index.ts', import.meta.url)) },
  },
  server: { proxy: { '/api': 'http://localhost:8080', '/config.json': 'http://localhost:8080' } },
  build: { outDir: 'dist', sourcemap: true },
});

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console is served by the Kelvin server; in `vite dev` the API is proxied to it.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
    target: 'es2022',
  },
});

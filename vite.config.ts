import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';

// Builds the islands into pkg/web/static/dist, which the Go binary embeds and
// reads through the manifest (pkg/web/assets.go).
export default defineConfig({
  plugins: [
    react(),
    {
      // dist/ is emptied on each build (no stale hashed files end up embedded);
      // .gitkeep keeps the folder, and so the go:embed pattern, in git.
      name: 'keep-dist-folder',
      closeBundle() {
        writeFileSync('pkg/web/static/dist/.gitkeep', '');
      },
    },
  ],
  base: '/static/dist/',
  build: {
    outDir: 'pkg/web/static/dist',
    emptyOutDir: true,
    manifest: 'manifest.json',
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      input: 'islands/main.tsx',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['islands/**/*.test.{ts,tsx}'],
  },
});

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';

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
    {
      // The API reference (/api-docs) is Swagger UI, served from our own
      // origin (the CSP allows only 'self' scripts and styles).
      name: 'copy-swagger-ui',
      closeBundle() {
        mkdirSync('pkg/web/static/dist/swagger-ui', { recursive: true });
        for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
          copyFileSync(`node_modules/swagger-ui-dist/${f}`, `pkg/web/static/dist/swagger-ui/${f}`);
        }
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
    setupFiles: ['islands/test-setup.ts'],
    // On a busy 2-core machine a test typing a whole booking form in jsdom
    // took more than vitest's 5 s (12 failed so in a run beside the Go
    // tests): a test fails on what it finds, not on how busy the machine is.
    testTimeout: 60_000,
  },
});

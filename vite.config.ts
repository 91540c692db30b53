import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

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
      // The API reference (/api-docs) is Scalar's standalone bundle, served
      // from our own origin (the CSP allows only 'self' scripts), never from
      // a CDN. Its source map (20 MB) is left out of the binary, and so is
      // the comment naming it (a browser's developer tools would ask for it).
      name: 'copy-scalar',
      closeBundle() {
        mkdirSync('pkg/web/static/dist/scalar', { recursive: true });
        const js = readFileSync('node_modules/@scalar/api-reference/dist/browser/standalone.js', 'utf8');
        writeFileSync('pkg/web/static/dist/scalar/standalone.js', js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
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

// Vitest's setup for the islands' tests. On a busy 2-core machine a render
// after a mocked answer can take longer than Testing Library's 1 s: findBy
// and waitFor wait up to 15 s for what must appear, and fail on what never
// does.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 15_000 });

// Every test starts from an empty document with the real globals: what a
// test rendered is unmounted, and a global it replaced with vi.stubGlobal
// (its fake fetch) is restored. jsdom lays nothing out, so scrolling an
// option into view does nothing.
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
Element.prototype.scrollIntoView = () => {};

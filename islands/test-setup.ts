// Vitest's setup for the islands' tests. On a busy 2-core machine a render
// after a mocked answer can take longer than Testing Library's 1 s: findBy
// and waitFor wait up to 15 s for what must appear, and fail on what never
// does.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 15_000 });

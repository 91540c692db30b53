import { describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { useSolutions, type Query } from './useSolutions';
import { emptyFilters } from './types';

const query: Query = {
  filters: emptyFilters(),
  sort: 'default',
  page: 1,
};

// answer fakes the solutions endpoint: a complete page whose total names
// the search it answers.
function answer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      const total = body.searchId === 'first' ? 7 : 3;
      const data = { complete: true, total, items: [], facets: {}, suppliers: [] };
      return { status: 200, json: async () => ({ code: 0, data }) } as Response;
    }),
  );
}


describe('useSolutions', () => {
  it('never shows the previous search as the new one, not even for the render that brings it', async () => {
    answer();
    const seen: Array<{ id: string | null; status: string; total?: number }> = [];
    const { result, rerender } = renderHook(
      ({ id }: { id: string | null }) => {
        const s = useSolutions(id, query, 'en', 10);
        seen.push({ id, status: s.status, total: s.status === 'ready' ? s.data.total : undefined });
        return s;
      },
      { initialProps: { id: 'first' as string | null } },
    );
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.status === 'ready' && result.current.data.total).toBe(7);

    seen.length = 0;
    rerender({ id: 'second' });
    // The very render with the new id is not the first search's answer.
    expect(seen[0]).toEqual({ id: 'second', status: 'loading', total: undefined });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.status === 'ready' && result.current.data.total).toBe(3);
    expect(seen.filter((s) => s.id === 'second' && s.total === 7)).toEqual([]);

    rerender({ id: null });
    expect(result.current.status).toBe('idle');
  });
});

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from '@testing-library/react';
import type { i18n } from 'i18next';
import { initI18n } from './i18n';
import { mountIslands, unmountIslands, type Registry } from './registry';
import { useT } from './useT';

function Hello({ who }: { who: string }) {
  const { t } = useT();
  return <p>{t('router.login')}, {who}</p>;
}

let en: i18n;
beforeAll(async () => {
  en = await initI18n('en');
});

const registry: Registry = { Hello: async () => Hello };

describe('mountIslands', () => {
  it('mounts each island once with its props, replacing the fallback', async () => {
    document.body.innerHTML = `<div id="a" data-island="Hello" data-props='{"who":"Ann"}'><select></select></div>`;
    await act(async () => {
      await mountIslands(document, registry, en);
      await mountIslands(document, registry, en);
    });
    const a = document.getElementById('a')!;
    expect(a.textContent).toBe('Please login, Ann');
    expect(a.querySelector('select')).toBeNull();
    expect(a.dataset.islandMounted).toBe('true');
    act(() => unmountIslands(document));
    expect(a.textContent).toBe('');
  });

  it('leaves the fallback when the island is unknown or its props are broken', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    document.body.innerHTML = `<div id="u" data-island="Nope"><select></select></div><div id="b" data-island="Hello" data-props='{oops'><select></select></div>`;
    await act(async () => {
      await mountIslands(document, registry, en);
    });
    expect(document.querySelectorAll('select').length).toBe(2);
    expect(err).toHaveBeenCalledTimes(2);
    err.mockRestore();
  });
});

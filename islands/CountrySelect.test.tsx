import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { CountrySelect } from './CountrySelect';
import { I18nContext } from './useT';
import { initI18n } from './i18n';
import { filterCountries, loadCountries, sortCountries } from './countries';

let en: i18n;
let tw: i18n;

beforeAll(async () => {
  en = await initI18n('en');
  tw = await initI18n('zh-tw');
});


function renderSelect(i: i18n, props: Partial<Parameters<typeof CountrySelect>[0]> = {}) {
  const utils = render(
    <I18nContext.Provider value={i}>
      <form data-testid="form">
        <label htmlFor="country">Country</label>
        <CountrySelect name="country" id="country" {...props} />
      </form>
    </I18nContext.Provider>,
  );
  const hidden = () => utils.container.querySelector<HTMLInputElement>('input[type="hidden"][name="country"]')!;
  return { ...utils, hidden };
}

// renderLoaded renders the select and waits for the country list, loaded
// as it is by the time a user types; it answers the combobox too.
async function renderLoaded(i: i18n) {
  const utils = renderSelect(i);
  await act(async () => {
    await loadCountries();
  });
  return { ...utils, box: screen.getByRole('combobox') };
}

describe('filterCountries', () => {
  it('finds by name in any language, alias and code, prefix matches first', async () => {
    const list = sortCountries(await loadCountries(), 'en');
    expect(filterCountries(list, 'singa', 'en').map((c) => c.code)).toEqual(['SG']);
    expect(filterCountries(list, 'China', 'en')[0].code).toBe('CN');
    expect(filterCountries(list, '新加坡', 'en').map((c) => c.code)).toEqual(['SG']);
    expect(filterCountries(list, 'uk', 'en')[0].code).toBe('GB');
    expect(filterCountries(list, 'sg', 'en')[0].code).toBe('SG');
    expect(filterCountries(list, 'zzzz', 'en')).toEqual([]);
  });
});

describe('CountrySelect', () => {
  it('is a labelled combobox that starts with the given country', async () => {
    const { hidden } = renderSelect(en, { value: 'SG' });
    const box = screen.getByRole('combobox', { name: 'Country' });
    await waitFor(() => expect((box as HTMLInputElement).value).toBe('Singapore'));
    expect(hidden().value).toBe('SG');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('filters as the user types and picks with the keyboard', async () => {
    const { hidden, box } = await renderLoaded(en);
    fireEvent.change(box, { target: { value: 'Singa' } });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Singapore']);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0].id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(hidden().value).toBe('SG');
    expect((box as HTMLInputElement).value).toBe('Singapore');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('picks with the mouse and shows names in the page language', async () => {
    const { hidden, box } = await renderLoaded(tw);
    fireEvent.change(box, { target: { value: '香' } });
    const hk = screen.getAllByRole('option').find((o) => o.textContent?.startsWith('香港'));
    expect(hk).toBeDefined();
    fireEvent.mouseDown(hk!);
    expect(hidden().value).toBe('HK');
    expect((box as HTMLInputElement).value).toBe('香港');
  });

  it('says so when nothing matches and clears a choice the text no longer names', async () => {
    const { hidden } = renderSelect(en, { value: 'SG' });
    const box = screen.getByRole('combobox') as HTMLInputElement;
    await waitFor(() => expect(box.value).toBe('Singapore'));
    fireEvent.change(box, { target: { value: 'Atlantis' } });
    expect(screen.getByText('No country matches')).toBeTruthy();
    fireEvent.blur(box);
    expect(hidden().value).toBe('');
  });

  it('accepts an exact name typed without choosing from the list', async () => {
    const { hidden, box } = await renderLoaded(en);
    fireEvent.change(box, { target: { value: 'japan' } });
    fireEvent.blur(box);
    expect(hidden().value).toBe('JP');
  });

  it('carries the server validation state', () => {
    renderSelect(en, { invalid: true, required: true, describedBy: 'country-error' });
    const box = screen.getByRole('combobox');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-required')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe('country-error');
  });

  it('tells an island form of each choice and follows the value it sets', async () => {
    const seen: string[] = [];
    function Controlled() {
      const [code, setCode] = useState('');
      return (
        <I18nContext.Provider value={en}>
          <label htmlFor="nat">Nationality</label>
          <CountrySelect name="nat" id="nat" value={code} onChange={(c) => (seen.push(c), setCode(c))} />
          <button type="button" onClick={() => setCode('SG')}>
            Fill
          </button>
          <button type="button" onClick={() => setCode('')}>
            Clear
          </button>
        </I18nContext.Provider>
      );
    }
    render(<Controlled />);
    const box = screen.getByRole('combobox', { name: 'Nationality' }) as HTMLInputElement;
    await act(async () => {
      await loadCountries();
    });
    fireEvent.change(box, { target: { value: 'japan' } });
    fireEvent.blur(box);
    expect(seen).toEqual(['JP']);
    expect(box.value).toBe('Japan');
    fireEvent.click(screen.getByRole('button', { name: 'Fill' }));
    await waitFor(() => expect(box.value).toBe('Singapore'));
    // Text that names no country clears the choice but stays to be fixed.
    fireEvent.change(box, { target: { value: 'Atlantis' } });
    fireEvent.blur(box);
    expect(seen).toEqual(['JP', '']);
    expect(box.value).toBe('Atlantis');
    fireEvent.click(screen.getByRole('button', { name: 'Fill' }));
    await waitFor(() => expect(box.value).toBe('Singapore'));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(box.value).toBe('');
  });
});

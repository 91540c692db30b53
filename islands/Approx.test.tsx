import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { i18n } from 'i18next';
import { Approx } from './Approx';
import { I18nContext } from './useT';
import { initI18n } from './i18n';

let en: i18n;

beforeAll(async () => {
  en = await initI18n('en');
});

// showIn writes the page's display currency as the layout does.
function showIn(code: string) {
  clearDisplay();
  const m = document.createElement('meta');
  m.name = 'voyage-display-currency';
  m.content = code;
  m.dataset.rates = JSON.stringify({ CNY: '1', USD: '7.1' });
  document.head.appendChild(m);
}

function clearDisplay() {
  document.head.querySelectorAll('meta[name="voyage-display-currency"]').forEach((m) => m.remove());
}

afterEach(() => {
  cleanup();
  clearDisplay();
});

const view = (amount: string, currency: string) =>
  render(
    <I18nContext.Provider value={en}>
      <p>
        {amount} {currency}
        <Approx amount={amount} currency={currency} />
      </p>
    </I18nContext.Provider>,
  ).container;

describe('Approx', () => {
  it('follows the amount with its approximate figure in the display currency, saying it is approximate', () => {
    showIn('USD');
    const c = view('690.00', 'CNY');
    expect(c.textContent).toBe('690.00 CNY ≈ USD 97.19');
    const span = c.querySelector('span.approx')!;
    expect(span.getAttribute('title')).toBe('Approximately, at the current exchange rate; you pay in CNY');
  });

  it('adds nothing in the settlement currency or without a rate', () => {
    showIn('CNY');
    expect(view('690.00', 'CNY').textContent).toBe('690.00 CNY');
    cleanup();
    showIn('USD');
    expect(view('690.00', 'EUR').textContent).toBe('690.00 EUR');
    cleanup();
    clearDisplay();
    expect(view('690.00', 'CNY').textContent).toBe('690.00 CNY');
  });
});

// PriceDetail is a solution's price per passenger type in a popover: how
// many travel, the fare, the taxes and the sale price of each.
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../useT';
import { formatAmount, formatMoney } from './format';
import type { Solution } from './types';

export function PriceDetail({ solution }: { solution: Solution }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const lines = solution.priceDetail?.priceList || [];

  useEffect(() => {
    if (!open) return;
    const onDown = (ev: MouseEvent) => {
      if (root.current && !root.current.contains(ev.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  if (lines.length === 0) return null;
  const product = solution.priceDetail?.productType;
  return (
    <div
      className="fs-price-detail"
      ref={root}
      onKeyDown={(ev) => {
        if (ev.key === 'Escape' && open) {
          ev.preventDefault();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button type="button" ref={button} className="fs-link" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {t('flight.price.details')}
      </button>
      <div id={id} className="fs-popover fs-price-popover" role="group" aria-label={t('flight.price.details')} hidden={!open}>
        <table className="fs-price-table">
          <caption>
            {t('flight.price.details')}
            {product ? <span className="fs-product"> · {tOr(t, `flight.product.${product}`, product)}</span> : null}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('flight.price.passengerType')}</th>
              <th scope="col">{t('flight.price.count')}</th>
              <th scope="col">{t('flight.price.fare')}</th>
              <th scope="col">{t('flight.price.taxes')}</th>
              <th scope="col">{t('flight.price.salePrice')}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => (
              <tr key={`${l.passengerType}-${i}`}>
                <th scope="row">{tOr(t, `flight.passengers.${l.passengerType}`, l.passengerType)}</th>
                <td>{l.count ?? ''}</td>
                <td>{formatAmount(l.price)}</td>
                <td>{formatAmount(l.taxes)}</td>
                <td>{formatMoney(l.salePrice, l.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>
                {t('flight.price.total')}
              </th>
              <td>{formatMoney(solution.total.amount, solution.total.currency)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}

// tOr translates key, or shows fallback when the catalog lacks it (a value
// a supplier introduced that the catalog does not know yet).
export function tOr(t: (k: string, o?: Record<string, unknown>) => string, key: string, fallback: string, o?: Record<string, unknown>): string {
  const s = t(key, o);
  return s === key ? fallback : s;
}

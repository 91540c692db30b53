// PriceDetail is a solution's price per passenger type in a popover: how
// many travel, the fare, the taxes (and service fee), the price per person
// and the subtotal of each, adding up to the total. The popover opens beside
// the card's price column, never over its Select button.
import { useId } from 'react';
import { usePopover } from './usePopover';
import { useT } from '../useT';
import { formatAmount, formatMoney } from './format';
import { Approx } from '../Approx';
import { priceRows } from './price';
import type { Solution } from './types';
import { TableHead } from '../catalogParts';

export function PriceDetail({ solution }: { solution: Solution }) {
  const { t } = useT();
  const id = useId();
  const { open, root, button, toggle, onKeyDown } = usePopover();

  if (!solution.priceDetail?.priceList?.length) return null;
  return (
    <div
      className="fs-price-detail"
      ref={root}
      onKeyDown={onKeyDown}
    >
      <button type="button" ref={button} className="fs-link" aria-expanded={open} aria-controls={id} onClick={toggle}>
        {t('flight.price.details')}
      </button>
      <div id={id} className="fs-popover fs-price-popover" role="group" aria-label={t('flight.price.details')} hidden={!open}>
        <PriceLinesTable solution={solution} />
      </div>
    </div>
  );
}

// PriceLinesTable is the breakdown table, shared with the confirm page.
export function PriceLinesTable({ solution, className = 'fs-price-table' }: { solution: Pick<Solution, 'priceDetail' | 'total'>; className?: string }) {
  const { t } = useT();
  const { rows, hasFee, total, currency } = priceRows(solution);
  const product = solution.priceDetail?.productType;
  return (
    <table className={className}>
      <caption>
        {t('flight.price.details')}
        {product ? <span className="fs-product"> · {tOr(t, `flight.product.${product}`, tOr(t, `flight.speed.${product}`, product))}</span> : null}
      </caption>
      <TableHead columns={['flight.price.passengerType', 'flight.price.count', 'flight.price.fare', 'flight.price.taxes', ...(hasFee ? ['results.price.fee'] : []), 'flight.price.salePrice', 'confirm.price.subtotal']} />
      <tbody>
        {rows.map((r, i) => (
          <tr key={`${r.passengerType}-${i}`} data-passenger-type={r.passengerType}>
            <th scope="row">{tOr(t, `flight.passengers.${r.passengerType}`, r.passengerType)}</th>
            <td className="fs-pl-count">{r.count}</td>
            <td className="fs-pl-fare">{formatAmount(r.fare)}</td>
            <td className="fs-pl-taxes">{formatAmount(r.taxes)}</td>
            {hasFee && <td className="fs-pl-fee">{formatAmount(r.fee)}</td>}
            <td className="fs-pl-person">{formatMoney(r.perPerson, r.currency)}</td>
            <td className="fs-pl-subtotal">{formatMoney(r.subtotal, r.currency)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={hasFee ? 6 : 5}>
            {t('flight.price.total')}
          </th>
          <td className="fs-pl-total">
            {formatMoney(total, currency)}
            <Approx amount={total} currency={currency} />
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

// tOr translates key, or shows fallback when the catalog lacks it (a value
// a supplier introduced that the catalog does not know yet).
export function tOr(t: (k: string, o?: Record<string, unknown>) => string, key: string, fallback: string, o?: Record<string, unknown>): string {
  const s = t(key, o);
  return s === key ? fallback : s;
}

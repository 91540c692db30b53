// TravellerPicker fills a passenger from one of the agency's saved
// travellers (GET /base/v2/often-used-passengers). Props in, traveller out:
// the booking form that holds it keeps the list (loaded once for all its
// passengers with loadTravellers) and decides what a pick fills.
import { useT } from '../useT';
import { call, errorText } from '../flight/api';
import { aria } from '../confirm/fields';
import { tOr } from '../flight/PriceDetail';
import type { OftenUsed, OftenUsedPage } from '../confirm/types';
import './travellers.css';

export type SavedTraveller = OftenUsed;

export type TravellersState = { status: 'loading' } | { status: 'ready'; items: SavedTraveller[] } | { status: 'error'; message: string };

// managePath is the saved-traveller pages (templates.TravellersPath).
export const managePath = '/profile/travellers';

// loadTravellers reads every saved traveller (an agency keeps at most 30).
export async function loadTravellers(lang: string, t: (key: string) => string): Promise<TravellersState> {
  try {
    const page = await call<OftenUsedPage>('GET', '/base/v2/often-used-passengers?page=1&pageSize=100', undefined, { lang });
    return { status: 'ready', items: page?.items || [] };
  } catch (err) {
    return { status: 'error', message: errorText(err, t) };
  }
}

export type TravellerPickerProps = {
  // name is the field's name, for its id (passengers.0.oftenUsed).
  name: string;
  travellers: TravellersState;
  // type puts travellers of the passenger's type first.
  type?: string;
  // value is the traveller the passenger was filled from.
  value?: number;
  // takenIds are travellers already picked for another passenger.
  takenIds?: number[];
  onPick: (p: SavedTraveller) => void;
};

export function TravellerPicker({ name, travellers, type, value, takenIds = [], onPick }: TravellerPickerProps) {
  const { t } = useT();
  const empty = travellers.status === 'ready' && travellers.items.length === 0;
  const a = aria(name, undefined, 'hint');
  const manage = (
    <a href={managePath} target="_blank" rel="noopener">
      {t('travellers.picker.manage')}
    </a>
  );
  if (travellers.status === 'error') {
    return (
      <p className="fs-hint fc-often-used">
        {t('travellers.picker.error')} {manage}
      </p>
    );
  }
  const items = travellers.status === 'ready' ? travellers.items : [];
  const sorted = type ? [...items.filter((p) => p.type === type), ...items.filter((p) => p.type !== type)] : items;
  return (
    <div className="fs-field fc-often-used">
      <label htmlFor={a.id}>{t('travellers.picker.label')}</label>
      <select
        {...a}
        className="fs-input"
        value={value ?? ''}
        disabled={travellers.status !== 'ready' || items.length === 0}
        onChange={(ev) => {
          const p = items.find((x) => String(x.id) === ev.target.value);
          if (p) onPick(p);
        }}
      >
        <option value="">
          {travellers.status === 'loading' ? t('travellers.picker.loading') : items.length === 0 ? t('travellers.picker.none') : t('travellers.picker.choose')}
        </option>
        {sorted.map((p) => (
          <option key={p.id} value={p.id} disabled={takenIds.includes(p.id) && p.id !== value}>
            {`${p.surname}/${p.givenName} · ${tOr(t, `flight.passengers.${p.type}`, p.type)} · ${p.birthday}`}
          </option>
        ))}
      </select>
      <p className="fs-hint" id={`${a.id}-hint`}>
        {empty ? `${t('travellers.picker.emptyHint')} ` : ''}
        {manage}
      </p>
    </div>
  );
}

// PassengerFields is one traveller's part of the booking form (spec §3
// Passenger): names, gender, birthday, nationality, the travel document the
// fare accepts, and optionally a frequent flyer card, the passport's issuing
// place, phone and email. It can be filled from a saved traveller or from a
// scanned document (islands/travellers).
import { useT } from '../useT';
import { CountrySelect } from '../CountrySelect';
import { tOr } from '../flight/PriceDetail';
import { aria, DateField, Field, fieldId, GenderChoice, TextField } from './fields';
import { acceptedDocument, documentChoices, fillFrom, fillScanned } from './validate';
import type { PassengerForm, Restrictions } from './types';
import { TravellerPicker, type TravellersState } from '../travellers/TravellerPicker';
import { ScanDocument } from '../travellers/ScanDocument';

export type Carrier = { code: string; name: string };

// OftenUsedState is the agency's saved travellers as the form loaded them.
export type OftenUsedState = TravellersState;

type Props = {
  index: number;
  form: PassengerForm;
  onChange: (f: PassengerForm) => void;
  errors: Record<string, string>;
  clearError: (name: string) => void;
  onPasteRejected: (name: string) => void;
  restrictions?: Restrictions;
  carriers: Carrier[];
  oftenUsed: OftenUsedState;
  // takenIds are often-used passengers already in another form.
  takenIds: number[];
  firstDate: string;
  disabled?: boolean;
};

export function PassengerFields({ index, form, onChange, errors, clearError, onPasteRejected, restrictions, carriers, oftenUsed, takenIds, firstDate, disabled }: Props) {
  const { t } = useT();
  const f = (name: string) => `passengers.${index}.${name}`;
  const err = (name: string) => errors[f(name)];
  function set<K extends keyof PassengerForm>(name: K, value: PassengerForm[K]) {
    onChange({ ...form, [name]: value });
    clearError(f(name));
  }
  const typeLabel = t(`flight.passengers.${form.type}`);
  const choices = documentChoices(restrictions);
  // A document filled from elsewhere the fare does not take stays visible,
  // marked, so the user sees why it is refused.
  const docOptions = form.documentType && !choices.includes(form.documentType) ? [...choices, form.documentType] : choices;
  const genderErr = err('gender');

  return (
    <fieldset className="fc-passenger" disabled={disabled}>
      <legend className="fc-passenger-title">
        {t('confirm.passenger.title', { n: index + 1, type: typeLabel })}
        <span className="fc-passenger-hint"> · {t(`flight.passengers.${form.type}Hint`)}</span>
      </legend>

      <div className="tv-tools">
        <TravellerPicker
          name={f('oftenUsed')}
          travellers={oftenUsed}
          type={form.type}
          value={form.oftenUsed}
          takenIds={takenIds}
          onPick={(p) => onChange(fillFrom(form, p))}
        />
        <ScanDocument label={t('confirm.passenger.title', { n: index + 1, type: typeLabel })} disabled={disabled} onFill={(s) => onChange(fillScanned(form, { ...s, documentType: acceptedDocument(s.documentType, choices) }))} />
      </div>

      <div className="fc-grid">
        <TextField
          name={f('surname')}
          label={t('confirm.field.surname')}
          hint={t('confirm.hint.surname')}
          value={form.surname}
          onChange={(v) => set('surname', v)}
          error={err('surname')}
          required
          upper
          maxLength={50}
        />
        <TextField
          name={f('givenName')}
          label={t('confirm.field.givenName')}
          value={form.givenName}
          onChange={(v) => set('givenName', v)}
          error={err('givenName')}
          required
          upper
          maxLength={50}
        />
        <GenderChoice
          name={f('gender')}
          row={form.key}
          legend={t('confirm.field.gender')}
          value={form.gender}
          label={(g) => t(`confirm.gender.${g}`)}
          onChange={(g) => set('gender', g)}
          error={genderErr}
          required
        />
        <DateField
          name={f('birthday')}
          label={t('confirm.field.birthday')}
          hint={firstDate ? t('confirm.hint.birthday', { date: firstDate }) : undefined}
          value={form.birthday}
          onChange={(v) => set('birthday', v)}
          onPasteRejected={() => onPasteRejected(f('birthday'))}
          error={err('birthday')}
          required
        />
        <Field name={f('nationality')} label={t('confirm.field.nationality')} error={err('nationality')} required>
          {(a) => (
            <CountrySelect
              id={a.id}
              name={f('nationality')}
              value={form.nationality}
              required
              invalid={!!a['aria-invalid']}
              describedBy={a['aria-describedby']}
              onChange={(code) => set('nationality', code)}
            />
          )}
        </Field>
        <Field name={f('documentType')} label={t('confirm.field.documentType')} error={err('documentType')} required>
          {(a) => (
            <select {...a} className="fs-input" value={form.documentType} required onChange={(ev) => set('documentType', ev.target.value)}>
              <option value="">{t('confirm.select.choose')}</option>
              {docOptions.map((d) => (
                <option key={d} value={d}>
                  {tOr(t, `confirm.document.${d}`, d)}
                  {choices.includes(d) ? '' : ` (${t('confirm.document.notAccepted')})`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          name={f('documentNumber')}
          label={t('confirm.field.documentNumber')}
          value={form.documentNumber}
          onChange={(v) => set('documentNumber', v.replace(/\s/g, ''))}
          error={err('documentNumber')}
          required
          upper
          maxLength={30}
        />
        <DateField
          name={f('documentExpiry')}
          label={t('confirm.field.documentExpiry')}
          value={form.documentExpiry}
          onChange={(v) => set('documentExpiry', v)}
          onPasteRejected={() => onPasteRejected(f('documentExpiry'))}
          error={err('documentExpiry')}
          required
        />
        <TextField
          name={f('documentIssuedAt')}
          label={t('confirm.field.documentIssuedAt')}
          value={form.documentIssuedAt}
          onChange={(v) => set('documentIssuedAt', v)}
          error={err('documentIssuedAt')}
          maxLength={50}
        />
        <TextField
          name={f('frequentFlyer')}
          label={t('confirm.field.frequentFlyer')}
          value={form.frequentFlyer}
          onChange={(v) => set('frequentFlyer', v.replace(/\s/g, ''))}
          error={err('frequentFlyer')}
          upper
          maxLength={30}
        />
        <Field name={f('ffAirline')} label={t('confirm.field.ffAirline')} error={err('ffAirline')}>
          {(a) => (
            <select {...a} className="fs-input" value={form.ffAirline} onChange={(ev) => set('ffAirline', ev.target.value)}>
              <option value="">{t('confirm.select.none')}</option>
              {carriers.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name && c.name !== c.code ? `${c.name} (${c.code})` : c.code}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          name={f('phone')}
          label={t('confirm.field.passengerPhone')}
          type="tel"
          value={form.phone}
          onChange={(v) => set('phone', v)}
          error={err('phone')}
          maxLength={20}
        />
        <TextField
          name={f('email')}
          label={t('confirm.field.passengerEmail')}
          type="email"
          value={form.email}
          onChange={(v) => set('email', v)}
          error={err('email')}
          maxLength={254}
        />
      </div>
    </fieldset>
  );
}

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

// TextKey names the passenger's entries a text or date field edits.
type TextKey = 'surname' | 'givenName' | 'birthday' | 'documentNumber' | 'documentExpiry' | 'documentIssuedAt' | 'frequentFlyer' | 'phone' | 'email';

export function PassengerFields({ index, form, onChange, errors, clearError, onPasteRejected, restrictions, carriers, oftenUsed, takenIds, firstDate, disabled }: Props) {
  const { t } = useT();
  const f = (name: string) => `passengers.${index}.${name}`;
  const err = (name: string) => errors[f(name)];
  function set<K extends keyof PassengerForm>(name: K, value: PassengerForm[K]) {
    onChange({ ...form, [name]: value });
    clearError(f(name));
  }
  // bind is what a text or date field of name takes: its name, value and
  // error, and a change that sets it (cleaned by clean, when given).
  const bind = (name: TextKey, clean = (v: string) => v) => ({
    name: f(name),
    value: form[name],
    onChange: (v: string) => set(name, clean(v)),
    error: err(name),
  });
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
          {...bind('surname')}
          label={t('confirm.field.surname')}
          hint={t('confirm.hint.surname')}
          required
          upper
          maxLength={50}
        />
        <TextField
          {...bind('givenName')}
          label={t('confirm.field.givenName')}
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
          {...bind('birthday')}
          label={t('confirm.field.birthday')}
          hint={firstDate ? t('confirm.hint.birthday', { date: firstDate }) : undefined}
          onPasteRejected={() => onPasteRejected(f('birthday'))}
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
          {...bind('documentNumber', (v) => v.replace(/\s/g, ''))}
          label={t('confirm.field.documentNumber')}
          required
          upper
          maxLength={30}
        />
        <DateField
          {...bind('documentExpiry')}
          label={t('confirm.field.documentExpiry')}
          onPasteRejected={() => onPasteRejected(f('documentExpiry'))}
          required
        />
        <TextField
          {...bind('documentIssuedAt')}
          label={t('confirm.field.documentIssuedAt')}
          maxLength={50}
        />
        <TextField
          {...bind('frequentFlyer', (v) => v.replace(/\s/g, ''))}
          label={t('confirm.field.frequentFlyer')}
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
          {...bind('phone')}
          label={t('confirm.field.passengerPhone')}
          type="tel"
          maxLength={20}
        />
        <TextField
          {...bind('email')}
          label={t('confirm.field.passengerEmail')}
          type="email"
          maxLength={254}
        />
      </div>
    </fieldset>
  );
}

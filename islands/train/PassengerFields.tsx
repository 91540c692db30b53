// One traveller's fields under the real-name rule: ticket type, name as on
// the document, gender, birthday, nationality, document type and number,
// and on G/D/C trains the seat letter asked for. It can be filled from a
// saved traveller or a scanned document (islands/travellers), mapped onto
// the railway's documents by ./scan.
import { useEffect, useState } from 'react';
import { useT } from '../useT';
import { Field, GenderChoice, TextField, fieldId } from '../confirm/fields';
import { countryName, loadCountries, sortCountries, type Country } from '../countries';
import { documentTypes, ticketTypes, type PassengerForm } from './types';
import { TravellerPicker, type TravellersState } from '../travellers/TravellerPicker';
import { ScanDocument } from '../travellers/ScanDocument';
import { fromSaved, fromScan, type Outcome } from './scan';
import { CatalogOptions } from '../catalogParts';

type Props = {
  index: number;
  form: PassengerForm;
  onChange: (p: PassengerForm) => void;
  errors: Record<string, string>;
  letters: string[];
  travellers: TravellersState;
  // takenIds are saved travellers already picked for another passenger.
  takenIds: number[];
  // picked is the saved traveller this passenger was filled from.
  picked?: number;
  onPick: (id: number | undefined) => void;
};

export function PassengerFields({ index, form, onChange, errors, letters, travellers, takenIds, picked, onPick }: Props) {
  const { t, lang } = useT();
  // What the last scan or pick left for the user: the pinyin of a Chinese
  // citizen's name, or why the saved document cannot be used for rail.
  const [latinName, setLatinName] = useState('');
  const [refusal, setRefusal] = useState('');
  const [countries, setCountries] = useState<Country[]>([]);
  useEffect(() => {
    let live = true;
    void loadCountries().then((list) => live && setCountries(sortCountries(list, lang)));
    return () => {
      live = false;
    };
  }, [lang]);
  const f = (x: string) => `passengers.${index}.${x}`;
  const err = (x: string) => errors[f(x)];
  const set = <K extends keyof PassengerForm>(k: K, v: PassengerForm[K]) => onChange({ ...form, [k]: v });
  const genderErr = err('gender');
  const title = t('trainportal.passenger.title', { n: index + 1 });
  function apply(o: Outcome) {
    onChange(o.form);
    setLatinName(o.latinName);
  }
  return (
    <fieldset className="fc-section tb-passenger">
      <legend className="tb-legend">{title}</legend>
      <div className="tv-tools">
        <TravellerPicker
          name={f('oftenUsed')}
          travellers={travellers}
          type={form.type}
          value={picked}
          takenIds={takenIds}
          onPick={(p) => {
            const o = fromSaved(form, p);
            apply(o);
            onPick(p.id);
            setRefusal(o.refusal ? t(o.refusal) : '');
          }}
        />
        <ScanDocument
          label={title}
          onFill={(s, r) => {
            const o = fromScan(form, s, r);
            if (o.refusal) return t(o.refusal);
            apply(o);
            onPick(undefined);
            setRefusal('');
          }}
        />
      </div>
      {refusal && (
        <p className="field-error tb-scan-refusal" role="alert">
          {refusal}
        </p>
      )}
      {latinName && (
        <p className="fs-hint tb-real-name" role="status">
          {t('trainscan.note.chineseName', { name: latinName })}
        </p>
      )}
      <div className="fc-grid">
        <Field name={f('type')} label={t('trainportal.passenger.type')} error={err('type')} required>
          {(a) => (
            <select {...a} className="fs-input" value={form.type} onChange={(ev) => set('type', ev.target.value as PassengerForm['type'])}>
              <CatalogOptions values={ticketTypes} catalog="trainportal.ticketType" />
            </select>
          )}
        </Field>
        <TextField name={f('surname')} label={t('trainportal.passenger.surname')} value={form.surname} onChange={(v) => set('surname', v)} error={err('surname')} required upper maxLength={50} />
        <TextField name={f('givenName')} label={t('trainportal.passenger.givenName')} value={form.givenName} onChange={(v) => set('givenName', v)} error={err('givenName')} required upper maxLength={50} />
        <GenderChoice
          name={f('gender')}
          row={form.key}
          legend={t('trainportal.passenger.gender')}
          value={form.gender}
          label={(g) => t(`trainportal.gender.${g}`)}
          onChange={(g) => set('gender', g)}
          error={genderErr}
        />
        <Field name={f('birthday')} label={t('trainportal.passenger.birthday')} error={err('birthday')} required>
          {(a) => <input {...a} type="date" className="fs-input" value={form.birthday} onChange={(ev) => set('birthday', ev.target.value)} />}
        </Field>
        <Field name={f('nationality')} label={t('trainportal.passenger.nationality')} error={err('nationality')} required>
          {(a) => (
            <select {...a} className="fs-input" value={form.nationality} onChange={(ev) => set('nationality', ev.target.value)}>
              {!countries.some((c) => c.code === form.nationality) && <option value={form.nationality}>{form.nationality}</option>}
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {countryName(c, lang)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field name={f('documentType')} label={t('trainportal.passenger.documentType')} error={err('documentType')} required>
          {(a) => (
            <select {...a} className="fs-input" value={form.documentType} onChange={(ev) => set('documentType', ev.target.value as PassengerForm['documentType'])}>
              <CatalogOptions values={documentTypes} catalog="trainportal.document" />
            </select>
          )}
        </Field>
        <TextField
          name={f('documentNumber')}
          label={t('trainportal.passenger.documentNumber')}
          value={form.documentNumber}
          onChange={(v) => set('documentNumber', v.replace(/\s/g, ''))}
          error={err('documentNumber')}
          required
          upper
          maxLength={20}
        />
        {letters.length > 0 && (
          <fieldset className="fc-choice tb-letters">
            <legend>{t('trainportal.passenger.seatLetter')}</legend>
            {['', ...letters].map((l, k) => (
              <label key={l || 'any'} className="fc-radio">
                <input
                  type="radio"
                  id={k === 0 ? fieldId(f('seatLetter')) : undefined}
                  name={`${fieldId(f('seatLetter'))}-${form.key}`}
                  value={l}
                  checked={form.seatLetter === l}
                  onChange={() => set('seatLetter', l)}
                />{' '}
                {l ? `${l} · ${t(`trainportal.seat.${l}`)}` : t('trainportal.seat.any')}
              </label>
            ))}
          </fieldset>
        )}
      </div>
    </fieldset>
  );
}

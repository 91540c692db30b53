// The booking's other parts: who to contact (spec §5: name, email and phone
// required), the fare's restrictions, the invoice type and a remark.
import { useEffect, useState } from 'react';
import { useT } from '../useT';
import { tOr } from '../flight/PriceDetail';
import { countryName, loadCountries, type Country } from '../countries';
import { Field, TextField } from './fields';
import { documentsUnrestricted } from './validate';
import { invoiceTypes, type ConfirmSolution, type Contact, type InvoiceType } from './types';
import { CatalogOptions } from '../catalogParts';

type ContactProps = {
  contact: Contact;
  onChange: (c: Contact) => void;
  errors: Record<string, string>;
  clearError: (name: string) => void;
};

export function ContactSection({ contact, onChange, errors, clearError }: ContactProps) {
  const { t } = useT();
  const set = (k: keyof Contact) => (v: string) => {
    onChange({ ...contact, [k]: v });
    clearError(`contact.${k}`);
  };
  return (
    <section className="fc-section" aria-labelledby="fc-contact-title">
      <h2 id="fc-contact-title">{t('confirm.contact.title')}</h2>
      <p className="fs-hint">{t('confirm.contact.hint')}</p>
      <div className="fc-grid">
        <TextField name="contact.name" label={t('confirm.field.contactName')} value={contact.name} onChange={set('name')} error={errors['contact.name']} required autoComplete="name" maxLength={100} />
        <TextField name="contact.email" label={t('confirm.field.contactEmail')} type="email" value={contact.email} onChange={set('email')} error={errors['contact.email']} required autoComplete="email" maxLength={254} />
        <TextField name="contact.phone" label={t('confirm.field.contactPhone')} type="tel" value={contact.phone} onChange={set('phone')} error={errors['contact.phone']} required autoComplete="tel" maxLength={30} />
      </div>
    </section>
  );
}

function useCountries(): Country[] {
  const [list, setList] = useState<Country[]>([]);
  useEffect(() => {
    let alive = true;
    void loadCountries().then((l) => alive && setList(l));
    return () => {
      alive = false;
    };
  }, []);
  return list;
}

// RestrictionsList shows who may travel on the fare (spec §3: age,
// documents, eligible and ineligible countries, product type, ticketing).
export function RestrictionsList({ solution: s }: { solution: ConfirmSolution }) {
  const { t, lang } = useT();
  const countries = useCountries();
  const r = s.restrictions;
  const name = (code: string) => {
    const c = countries.find((x) => x.code === code.toUpperCase());
    return c ? countryName(c, lang) : code;
  };
  let age = t('confirm.restrictions.anyAge');
  if (r?.minAge && r?.maxAge) age = t('confirm.restrictions.ageBetween', { min: r.minAge, max: r.maxAge });
  else if (r?.minAge) age = t('confirm.restrictions.ageFrom', { min: r.minAge });
  else if (r?.maxAge) age = t('confirm.restrictions.ageTo', { max: r.maxAge });
  const docs = documentsUnrestricted(r) ? t('confirm.restrictions.anyDocument') : (r?.documents || []).map((d) => tOr(t, `confirm.document.${d}`, d)).join(', ');
  const eligible = (r?.eligibleCountries || []).filter(Boolean);
  const ineligible = (r?.ineligibleCountries || []).filter(Boolean);
  const product = s.priceDetail?.productType;
  return (
    <dl className="fc-restrictions">
      <div>
        <dt>{t('confirm.restrictions.age')}</dt>
        <dd>{age}</dd>
      </div>
      <div>
        <dt>{t('confirm.restrictions.documents')}</dt>
        <dd>{docs}</dd>
      </div>
      <div>
        <dt>{t('confirm.restrictions.countries')}</dt>
        <dd>
          {eligible.length > 0 && <span className="fc-line-item">{t('confirm.restrictions.eligible', { countries: eligible.map(name).join(', ') })}</span>}
          {ineligible.length > 0 && <span className="fc-line-item">{t('confirm.restrictions.ineligible', { countries: ineligible.map(name).join(', ') })}</span>}
          {eligible.length === 0 && ineligible.length === 0 && t('confirm.restrictions.anyCountry')}
        </dd>
      </div>
      {product && (
        <div>
          <dt>{t('confirm.restrictions.product')}</dt>
          <dd>{tOr(t, `flight.product.${product}`, product)}</dd>
        </div>
      )}
      {s.ticketingSpeed && (
        <div>
          <dt>{t('confirm.restrictions.ticketing')}</dt>
          <dd>{tOr(t, `flight.speed.${s.ticketingSpeed}`, s.ticketingSpeed)}</dd>
        </div>
      )}
    </dl>
  );
}

type OptionsProps = {
  solution: ConfirmSolution;
  invoiceType: InvoiceType;
  onInvoiceType: (v: InvoiceType) => void;
  remark: string;
  onRemark: (v: string) => void;
  errors: Record<string, string>;
  clearError: (name: string) => void;
};

export function BookingOptions({ solution, invoiceType, onInvoiceType, remark, onRemark, errors, clearError }: OptionsProps) {
  const { t } = useT();
  return (
    <section className="fc-section" aria-labelledby="fc-options-title">
      <h2 id="fc-options-title">{t('confirm.restrictions.title')}</h2>
      <RestrictionsList solution={solution} />
      <div className="fc-grid">
        <Field name="invoiceType" label={t('confirm.field.invoiceType')} error={errors.invoiceType}>
          {(a) => (
            <select
              {...a}
              className="fs-input"
              value={invoiceType}
              onChange={(ev) => {
                onInvoiceType(ev.target.value as InvoiceType);
                clearError('invoiceType');
              }}
            >
              <CatalogOptions values={invoiceTypes} catalog="confirm.invoice" />
            </select>
          )}
        </Field>
        <Field name="remark" label={t('confirm.field.remark')} error={errors.remark} hint={t('confirm.hint.remark')} wide>
          {(a) => (
            <textarea
              {...a}
              className="fs-input fc-remark"
              rows={3}
              maxLength={500}
              value={remark}
              onChange={(ev) => {
                onRemark(ev.target.value);
                clearError('remark');
              }}
            />
          )}
        </Field>
      </div>
    </section>
  );
}

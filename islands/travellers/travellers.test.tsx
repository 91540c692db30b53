import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { i18n } from 'i18next';
import { I18nContext } from '../useT';
import { initI18n } from '../i18n';
import { ApiError } from '../flight/api';
import { ScanDocument } from './ScanDocument';
import { fillForm } from './ScanDocumentForm';
import { TravellerPicker, managePath, type SavedTraveller } from './TravellerPicker';
import { DocsImport } from './DocsImport';
import { fieldsOf, fileProblem, maxScanBytes, type Recognition } from './scan';
import { alpha2 } from './countryCodes';

let en: i18n;
let cn: i18n;
beforeAll(async () => {
  en = await initI18n('en');
  cn = await initI18n('zh-cn');
});

function wrap(node: ReactNode, i: i18n = en) {
  return render(<I18nContext.Provider value={i}>{node}</I18nContext.Provider>);
}

const read: Recognition = {
  type: 'passport', travel_document: 'E12345678', surname: 'ZHANG', given_names: 'SAN  FENG', nationality: 'CHN', birthday: '1985-05-12',
  gender: 'male', expiry: '2030-03-15', issuing_country: 'CHN', confidence: 0.97,
};

const png = (size = 4) => new File([new Uint8Array(size)], 'passport.png', { type: 'image/png' });

function upload(file: File) {
  fireEvent.click(screen.getByRole('button', { name: 'Scan document' }));
  fireEvent.change(screen.getByLabelText("Photo of the document's data page"), { target: { files: [file] } });
}

describe('scan mapping', () => {
  it('maps a recognition onto traveller fields', () => {
    expect(fieldsOf(read)).toEqual({
      surname: 'ZHANG', givenName: 'SAN FENG', gender: 'male', birthday: '1985-05-12', nationality: 'CN', documentType: 'passport',
      documentNumber: 'E12345678', documentExpiry: '2030-03-15',
    });
    expect(fieldsOf({ ...read, gender: '', type: 'visa', nationality: 'UTO' })).toMatchObject({ gender: '', documentType: '', nationality: '' });
  });

  it('turns ICAO nationality codes into alpha-2', () => {
    expect([alpha2('CHN'), alpha2('D'), alpha2('GBD'), alpha2('D<<'), alpha2('cn'), alpha2('XXX'), alpha2('')]).toEqual(['CN', 'DE', 'GB', 'DE', 'CN', '', '']);
  });

  it('refuses other types and files over 10MB before sending', () => {
    expect(fileProblem(png())).toBe('');
    expect(fileProblem(new File(['x'], 'scan.JPG', { type: '' }))).toBe('');
    expect(fileProblem(new File(['x'], 'scan.pdf', { type: 'application/pdf' }))).toBe('travellers.scan.error.type');
    expect(fileProblem({ name: 'big.png', type: 'image/png', size: maxScanBytes + 1 } as File)).toBe('travellers.scan.error.size');
  });
});

describe('ScanDocument', () => {
  it('shows what was read with its confidence and fills only on confirm', async () => {
    const onFill = vi.fn();
    const recogniseFn = vi.fn(async () => read);
    wrap(<ScanDocument onFill={onFill} recogniseFn={recogniseFn} />);
    upload(png());
    expect(await screen.findByText('Confidence 97%')).toBeTruthy();
    expect(document.querySelector('[data-field="given_names"]')?.textContent).toBe('SAN  FENG');
    expect(onFill).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Fill the form' }));
    expect(onFill).toHaveBeenCalledWith(expect.objectContaining({ surname: 'ZHANG', nationality: 'CN', documentNumber: 'E12345678' }), read);
    expect(screen.getByRole('status').textContent).toBe('The document was filled in; please check the fields');
  });

  it("shows a form's refusal of the document instead of filling, and lets the user choose another photo", async () => {
    const onFill = vi.fn(() => 'This identity card cannot be used here');
    wrap(<ScanDocument onFill={onFill} recogniseFn={async () => read} />);
    upload(png());
    fireEvent.click(await screen.findByRole('button', { name: 'Fill the form' }));
    expect(screen.getByRole('alert').textContent).toBe('This identity card cannot be used here');
    expect(screen.queryByText('The document was filled in; please check the fields')).toBeNull();
    expect(screen.getByLabelText("Photo of the document's data page")).toBeTruthy();
  });

  it('warns on low confidence', async () => {
    wrap(<ScanDocument onFill={vi.fn()} recogniseFn={async () => ({ ...read, confidence: 0.41 })} />);
    upload(png());
    expect(await screen.findByText(/Confidence 41% · Low confidence: compare every field/)).toBeTruthy();
  });

  it("shows the server's refusal and lets the user try again", async () => {
    const recogniseFn = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(100001, 'Document recognition failed: check the document type and re-upload'))
      .mockResolvedValueOnce(read);
    wrap(<ScanDocument onFill={vi.fn()} recogniseFn={recogniseFn} />);
    upload(png());
    expect((await screen.findByRole('alert')).textContent).toBe('Document recognition failed: check the document type and re-upload');
    fireEvent.change(screen.getByLabelText("Photo of the document's data page"), { target: { files: [png()] } });
    expect(await screen.findByText('Confidence 97%')).toBeTruthy();
  });

  it('refuses a PDF without calling the server, in Chinese too', async () => {
    const recogniseFn = vi.fn();
    wrap(<ScanDocument onFill={vi.fn()} recogniseFn={recogniseFn} />, cn);
    fireEvent.click(screen.getByRole('button', { name: '扫描证件' }));
    fireEvent.change(screen.getByLabelText('证件资料页照片'), { target: { files: [new File(['%PDF'], 'a.pdf', { type: 'application/pdf' })] } });
    expect((await screen.findByRole('alert')).textContent).toBe('证件图片必须是 JPG、JPEG 或 PNG 文件');
    expect(recogniseFn).not.toHaveBeenCalled();
  });

  it('sends the image as the multipart field file', async () => {
    const fetchMock = vi.fn(async () => ({ status: 200, json: async () => ({ code: 0, data: read, message: '' }) }) as Response);
    vi.stubGlobal('fetch', fetchMock);
    wrap(<ScanDocument onFill={vi.fn()} />);
    upload(png());
    await screen.findByText('Confidence 97%');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/base/v2/analysis/document');
    expect((init.body as FormData).get('file')).toBeInstanceOf(File);
    expect((init.headers as Record<string, string>)['Accept-Language']).toBe('en');
  });
});

describe('ScanDocumentForm', () => {
  it('fills a server-rendered form by field names', () => {
    document.body.innerHTML = `<form id="f"><input name="surname"><input name="givenName" value="OLD"><select name="gender"><option value=""></option><option value="male">M</option></select>
      <select name="nationality"><option value="">-</option><option value="CN">China</option></select><input name="documentExpiry"></form>`;
    const form = document.getElementById('f') as HTMLFormElement;
    const changed = vi.fn();
    form.addEventListener('change', changed);
    fillForm(form, { surname: 'ZHANG', givenName: '', gender: 'male', nationality: 'UT', documentExpiry: '2030-03-15' });
    const v = (n: string) => (form.elements.namedItem(n) as HTMLInputElement).value;
    expect([v('surname'), v('givenName'), v('gender'), v('nationality'), v('documentExpiry')]).toEqual(['ZHANG', 'OLD', 'male', '', '2030-03-15']);
    expect(changed).toHaveBeenCalledTimes(3);
    document.body.innerHTML = '';
  });
});

const saved = (id: number, surname: string, type: string): SavedTraveller => ({
  id, surname, givenName: 'SAN', type, gender: 'male', birthday: '1990-01-01', nationality: 'CN', documentType: 'passport',
  documentNumber: `E${id}`, documentExpiry: '2030-01-01',
});

describe('TravellerPicker', () => {
  it("puts the passenger's type first, keeps taken travellers out and hands the pick out", () => {
    const onPick = vi.fn();
    wrap(<TravellerPicker name="p.0" type="child" takenIds={[1]} travellers={{ status: 'ready', items: [saved(1, 'A', 'adult'), saved(2, 'B', 'child')] }} onPick={onPick} />);
    const select = screen.getByRole('combobox', { name: 'Fill from a saved traveller' });
    const options = Array.from((select as HTMLSelectElement).options);
    expect(options.map((o) => o.textContent)).toEqual(['Choose a traveller…', 'B/SAN · Children · 1990-01-01', 'A/SAN · Adults · 1990-01-01']);
    expect(options[2].disabled).toBe(true);
    fireEvent.change(select, { target: { value: '2' } });
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 2, surname: 'B' }));
    expect(screen.getByRole('link', { name: 'Manage saved travellers' }).getAttribute('href')).toBe(managePath);
  });

  it('says where travellers are saved when there are none, and when loading failed', () => {
    const { rerender } = wrap(<TravellerPicker name="p.0" travellers={{ status: 'ready', items: [] }} onPick={vi.fn()} />);
    expect(screen.getByRole('combobox')).toHaveProperty('disabled', true);
    expect(screen.getByText(/Travellers you save are listed here/)).toBeTruthy();
    rerender(
      <I18nContext.Provider value={en}>
        <TravellerPicker name="p.0" travellers={{ status: 'error', message: 'x' }} onPick={vi.fn()} />
      </I18nContext.Provider>,
    );
    expect(screen.getByText(/Saved travellers could not be loaded/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage saved travellers' })).toBeTruthy();
  });
});

describe('DocsImport', () => {
  it('sends the limits, shows a refusal at the field and hands out at most the booking’s seats', async () => {
    const answers = [
      { code: 100001, message: 'Validation failed', data: { fields: { text: 'Format error in line 1: a DOCS needs document type (P or I), number, nationality, birthday, gender and name' } } },
      { code: 0, data: { passengers: [{ surname: 'A' }, { surname: 'B' }, { surname: 'C' }] } },
    ];
    const fetchMock = vi.fn(async () => {
      const env = answers.shift()!;
      return { status: env.code ? 400 : 200, json: async () => ({ message: '', ...env }) } as Response;
    });
    vi.stubGlobal('fetch', fetchMock);
    const onImport = vi.fn();
    wrap(<DocsImport seats={2} limits={{ documents: ['passport'], airports: ['PEK', 'NRT'] }} onImport={onImport} />);
    fireEvent.click(screen.getByRole('button', { name: 'Import from DOCS' }));
    const box = screen.getByRole('textbox', { name: 'DOCS lines' });
    fireEvent.change(box, { target: { value: 'SSR DOCS CA HK1 P/CN' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fill the passengers' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Format error in line 1/);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(JSON.parse(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body))).toEqual({
      text: 'SSR DOCS CA HK1 P/CN', documents: ['passport'], international: false, airports: ['PEK', 'NRT'],
    });
    expect(onImport).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Fill the passengers' }));
    await waitFor(() => expect(onImport).toHaveBeenCalledWith([{ surname: 'A' }, { surname: 'B' }]));
    expect(screen.getByRole('status').textContent).toBe('The DOCS hold 3 passengers but the booking has 2; only the first 2 were filled');
  });
});

// Entry of the islands bundle, loaded by every portal page.
import htmx from 'htmx.org';
import { initI18n, langFromHTML } from './i18n';
import { mountIslands, unmountIslands, type Registry } from './registry';

// Components load on demand so a page pays only for the islands it shows.
const registry: Registry = {
  CountrySelect: () => import('./CountrySelect').then((m) => m.CountrySelect),
  FlightSearch: () => import('./FlightSearch').then((m) => m.FlightSearch),
  FlightConfirm: () => import('./FlightConfirm').then((m) => m.FlightConfirm),
  // Group flights (issue 16).
  GroupRequest: () => import('./GroupRequest').then((m) => m.GroupRequest),
  GroupCountdown: () => import('./GroupCountdown').then((m) => m.GroupCountdown),
  TrainBooking: () => import('./TrainBooking').then((m) => m.TrainBooking),
  TrainOrder: () => import('./TrainOrder').then((m) => m.TrainOrder),
  // Issue 18: the scan-document control on server-rendered traveller forms.
  ScanDocumentForm: () => import('./travellers/ScanDocumentForm').then((m) => m.ScanDocumentForm),
  // Issue 49: a card payment's step (Stripe's Payment Element, Airwallex's page).
  CardPayment: () => import('./CardPayment').then((m) => m.CardPayment),
};

// Selects marked data-autosubmit (language, currency) submit their form on
// change; the form's button stays for those without JavaScript.
function autosubmit(ev: Event) {
  const el = ev.target;
  if (el instanceof HTMLSelectElement && el.hasAttribute('data-autosubmit')) {
    el.form?.requestSubmit();
  }
}

async function start() {
  document.documentElement.classList.add('js');
  document.addEventListener('change', autosubmit);
  const i18n = await initI18n(langFromHTML(document.documentElement.lang));
  // htmx:load fires for the initial page and for every swapped-in fragment.
  htmx.onLoad((el) => {
    if (el instanceof Element) void mountIslands(el, registry, i18n);
  });
  document.body.addEventListener('htmx:beforeCleanupElement', (ev) => {
    if (ev.target instanceof HTMLElement && ev.target.matches('[data-island]')) unmountIslands(ev.target);
  });
  await mountIslands(document, registry, i18n);
}

void start();
